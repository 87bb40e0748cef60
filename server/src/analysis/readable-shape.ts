// What the keepalive analysis (everything under analysis/, fixes/ and rules/ but the `directive` rule's own files) can
// read of a block: its statements' names and order; every block's arguments and `if` condition; the arguments of the
// directives it names or finds by suffix (`*_pass`); everything in a block whose body is not directives (a map's arms,
// a geo's ranges: read by their place, whatever they are called) or whose name nginx's table does not know. An
// argument of any other directive counts only when it holds a `$` (a variable some lookup may follow) — a listen
// port, a client_max_body_size, a return's URL do not.
// Two blocks of equal shape give every rule but `directive` the same findings: the language server keeps them after
// an edit that changes nothing else (engine/block-rerun.ts).
import { directiveEntries } from '../model/directive-table.js';
import { hasCustomBody } from '../model/directive-context.js';
import type { Directive } from '../model/types.js';

/**
 * Directive names quoted (or written as object keys) in analysis/, fixes/ and the rules but `directive`:
 * test/analysis/readable-shape.test.ts fails when code there names one that is missing. Some are only property
 * names that happen to be directive names too (`meta`, `pass`, `root`): listing them costs nothing but reuse.
 */
export const READ_ARGUMENTS: ReadonlySet<string> = new Set([
  'add_header', 'add_trailer', 'fastcgi_keep_conn', 'fastcgi_param', 'fastcgi_pass', 'geo', 'grpc_pass',
  'grpc_set_header', 'hash', 'http', 'if', 'include', 'index', 'ip_hash', 'js_set', 'keepalive', 'least_conn',
  'least_time', 'limit_except',
  'location', 'mail', 'map', 'memcached_pass', 'meta', 'pass', 'perl_set', 'protocol', 'proxy_hide_header',
  'proxy_http_version', 'proxy_pass', 'proxy_pass_header', 'proxy_redirect', 'proxy_set_header', 'proxy_ssl_name',
  'random', 'resolver', 'rewrite', 'root', 'scgi_param', 'scgi_pass', 'server', 'set', 'split_clients', 'stream',
  'upstream', 'use', 'uwsgi_param', 'uwsgi_pass', 'zone',
]);

/** effective-lookup.ts finds passes by this suffix, whatever module they come from. */
const READ_SUFFIX = '_pass';

function argumentsRead(directive: Directive): boolean {
  return directive.blockSpan !== undefined || READ_ARGUMENTS.has(directive.name) || directive.name.endsWith(READ_SUFFIX);
}

/** A block whose statements are read whole: not nginx directives (map arms), or of a module the table lacks. */
function readWhole(block: Directive): boolean {
  return hasCustomBody(block.name) || directiveEntries(block.name).length === 0;
}

function addShape(directive: Directive, out: string[], inReadBlock: boolean): void {
  out.push(directive.name, directive.condition ?? '', String(directive.args.length));
  const read = inReadBlock || argumentsRead(directive);
  // Raw text: quotes and escapes are part of what a rule may read.
  for (const arg of directive.args) out.push(read || arg.raw.includes('$') ? arg.raw : '');
  out.push(directive.blockSpan ? '{' : ';');
  const childrenRead = inReadBlock || (directive.blockSpan !== undefined && readWhole(directive));
  for (const child of directive.children) addShape(child, out, childrenRead);
  if (directive.blockSpan) out.push('}');
}

/** The block as the keepalive analysis can read it, as one string: equal strings, equal findings. */
export function readableShape(block: Directive): string {
  const out: string[] = [];
  addShape(block, out, false);
  return out.join('\0');
}

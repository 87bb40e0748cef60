// A statement swallowed by the one before it: `server 127.0.0.1:8080` without its `;`, then `keepalive 16;` on the
// next line. nginx's tokenizer reads one directive, `server 127.0.0.1:8080 keepalive 16`, and the upstream module
// stops on it: `invalid parameter "keepalive"`, on the line of the `;`. The grammar reads the same single directive
// and nothing looks wrong, so a rule would see an upstream without keepalive and offer a second `keepalive 16;`,
// after which nginx still fails. Reported here as the syntax problem nginx makes of it, so the statement and what
// follows are read as nginx reads them: not at all (analysis/misread.ts).
//
// Only for the two directives whose parameters are a closed set of words and whose swallowing is common: an
// upstream's `server` and a server's `listen`. A parameter counts as a swallowed statement when it is the first one
// nginx rejects, starts on a later line than the directive's name, and is a directive's name itself. Checking every
// parameter of every directive is the directive table's business, not this file's.
import { directiveEntries } from './directive-table.js';
import type { Span } from '../util/types.js';
import type { Argument, Directive, SyntaxProblem } from './types.js';

/** Words nginx takes whole, and prefixes it takes with a value (`weight=5`), per directive (http, stream, mail). */
interface Parameters {
  words: ReadonlySet<string>;
  prefixes: readonly string[];
}

// ngx_http_upstream_server and ngx_stream_upstream_server, nginx 1.22 to 1.31 (resolve and service= from 1.27.3).
const UPSTREAM_SERVER: Parameters = {
  words: new Set(['backup', 'down', 'resolve', 'drain']),
  prefixes: ['weight=', 'max_conns=', 'max_fails=', 'fail_timeout=', 'slow_start=', 'service=', 'route='],
};

// ngx_http_core_listen, ngx_stream_core_listen and ngx_mail_core_listen, together: one of them takes each of these.
const LISTEN: Parameters = {
  words: new Set([
    'default_server', 'default', 'bind', 'deferred', 'reuseport', 'ssl', 'http2', 'spdy', 'quic', 'proxy_protocol', 'udp',
    'multipath',
  ]),
  prefixes: ['setfib=', 'fastopen=', 'backlog=', 'rcvbuf=', 'sndbuf=', 'accept_filter=', 'ipv6only=', 'so_keepalive='],
};

function parametersOf(directive: Directive): Parameters | undefined {
  const parent = directive.parent;
  if (!parent?.blockSpan) return undefined;
  if (directive.name === 'server' && parent.name === 'upstream') return UPSTREAM_SERVER;
  if (directive.name === 'listen' && parent.name === 'server') return LISTEN;
  return undefined;
}

function accepted(argument: Argument, parameters: Parameters): boolean {
  // A template action or a quoted word is not ours to judge here.
  if (argument.templated || argument.quoted) return true;
  const word = argument.value;
  return parameters.words.has(word) || parameters.prefixes.some((prefix) => word.startsWith(prefix));
}

/** `invalid parameter "keepalive"` when `directive` swallowed the statement after it, as nginx says it. */
export function swallowedStatement(directive: Directive): SyntaxProblem | undefined {
  if (directive.blockSpan || directive.args.length < 2) return undefined;
  const parameters = parametersOf(directive);
  if (!parameters) return undefined;
  const rejected = directive.args.slice(1).find((argument) => !accepted(argument, parameters));
  if (!rejected || rejected.span.start.line === directive.nameSpan.start.line) return undefined;
  if (directiveEntries(rejected.value).length === 0) return undefined;
  return { message: `invalid parameter "${rejected.value}"`, span: whereNginxSays(directive, rejected) };
}

/**
 * nginx names the line its tokenizer stands on when the directive ends: the `;`'s. The parameter itself is shown when
 * it is on that line (the usual `keepalive 16;`), else the `;`.
 */
function whereNginxSays(directive: Directive, rejected: Argument): Span {
  const end = directive.span;
  if (rejected.span.start.line === end.end.line) return rejected.span;
  return {
    start: { line: end.end.line, column: end.end.column - 1 },
    end: end.end,
    startOffset: end.endOffset - 1,
    endOffset: end.endOffset,
  };
}

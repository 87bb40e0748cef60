// The first syntax error nginx reports for a file, with nginx's words and on nginx's line: its tokenizer
// (nginx-tokens.ts, a port of ngx_conf_read_token) and the block structure ngx_conf_parse and ngx_conf_handler check
// around it. The grammar recovers from a mistake and reads on, so where it puts an error can be far from nginx's:
// an opening quote deleted from a multi-line log_format makes the grammar see a string running to the end of the
// file, while nginx stops on the next line (`unexpected "$"`) where the closing quote it took for an opening one is
// followed by a `$`. nginx stops at its first error, so this is the one place the file is certainly wrong.
//
// Checked, as nginx does, in the order the tokens come:
//   - the tokenizer's own errors: `unexpected "x"` after a closing quote, a `;` or `{` with no directive before it, a
//     `}` inside a statement, the end of the file inside a statement (`unexpected end of file, expecting ";" or "}"`);
//   - in a block whose body the module reads itself (map, geo, types, split_clients, charset_map: cf->handler), any
//     `{` is `unexpected "{"` (`map $a $b {` followed by `server {`);
//   - a `}` with no block open is `unexpected "}"`, the end of the file inside a block `unexpected end of file,
//     expecting "}"`;
//   - a directive nginx knows only as a simple one followed by `{` is `directive "x" is not terminated by ";"` (an
//     upstream's `server {S};`, `echo {X};`), one it knows only with a block followed by `;` `has no opening "{"`.
// Whether a name is known, allowed there, or given the right arguments is the directive rule's (nginx stops on those
// too, but they are not syntax).
import { directiveEntries } from './directive-table.js';
import { nginxTokens, type NginxToken } from './nginx-tokens.js';
import { SIMPLE_DIRECTIVES } from './simple-directives.js';

export interface NginxSyntaxError {
  message: string;
  /** Where nginx stopped: the offending character, or the text's length at the end of the file. */
  start: number;
  end: number;
}

/** Directives nginx only accepts with a block (ngx_conf_handler: 'directive "x" has no opening "{"'). */
export const BLOCK_DIRECTIVES: ReadonlySet<string> = new Set([
  'http', 'events', 'stream', 'mail', 'server', 'location', 'upstream', 'limit_except', 'map', 'geo', 'split_clients',
  'types', 'charset_map', 'match',
]);

/** A directive the table knows only as a simple one (a third-party module's `echo`, which no measured binary had). */
export function onlySimple(name: string): boolean {
  if (SIMPLE_DIRECTIVES.has(name)) return true;
  const entries = directiveEntries(name);
  return entries.length > 0 && entries.every((entry) => !entry.block);
}

/** A block whose body its module reads itself: every table entry of the name says so (map, geo, types, ...). */
export function readsOwnBody(name: string): boolean {
  const entries = directiveEntries(name);
  return entries.length > 0 && entries.every((entry) => entry.body === 'custom');
}

interface Frame {
  name: string;
  custom: boolean;
}

/** The first error nginx reports reading `text` as a configuration file, or undefined when it reads it through. */
export function nginxFirstError(text: string): NginxSyntaxError | undefined {
  const stack: Frame[] = [];
  let name = '';
  let wordCount = 0;
  let found: NginxSyntaxError | undefined;
  const stop = (message: string, start: number, end: number) => {
    found ??= { message, start, end };
  };
  const onToken = (token: NginxToken, start: number, end: number) => {
    if (found) return;
    if (token.startsWith('word ')) {
      if (wordCount++ === 0) name = token.slice(5);
      return;
    }
    if (token.startsWith('error ')) {
      const what = token.slice(6);
      stop(what === 'unexpected end of file' ? 'unexpected end of file, expecting ";" or "}"' : what, start, end);
      return;
    }
    if (token.startsWith('lua ')) return;
    const frame = stack.at(-1);
    const argCount = wordCount - 1;
    const directive = wordCount > 0 ? name : '';
    wordCount = 0;
    if (token === '}') {
      if (stack.pop() === undefined) stop('unexpected "}"', start, end);
      return;
    }
    if (frame?.custom) {
      if (token === '{') stop('unexpected "{"', start, end);
      return;
    }
    if (token === '{') {
      const simple = directive === 'server' ? frame?.name === 'upstream' : onlySimple(directive);
      if (simple) stop(`directive "${directive}" is not terminated by ";"`, start, end);
      else stack.push({ name: directive, custom: readsOwnBody(directive) });
      return;
    }
    // `server 10.0.0.1:80;` is an upstream's member; only an argument-less `server;` lacks its block.
    if (BLOCK_DIRECTIVES.has(directive) && !(directive === 'server' && (argCount > 0 || frame?.name === 'upstream'))) {
      stop(`directive "${directive}" has no opening "{"`, start, end);
    }
  };
  nginxTokens(text, undefined, onToken);
  if (!found && stack.length > 0) stop('unexpected end of file, expecting "}"', text.length, text.length);
  return found;
}

/**
 * The block depth nginx reads each statement at, by the offset of its first word, up to the first error: where the
 * grammar's recovery put a statement elsewhere (an opening quote with no closing one makes it drop the block around
 * it), the two differ.
 */
export function nginxStatementDepths(text: string): Map<number, number> {
  const depths = new Map<number, number>();
  let depth = 0;
  let inStatement = false;
  let stopped = false;
  nginxTokens(text, undefined, (token, start) => {
    if (stopped) return;
    if (token.startsWith('word ')) {
      if (!inStatement) depths.set(start, depth);
      inStatement = true;
      return;
    }
    if (token.startsWith('error ')) stopped = true;
    else if (token === '{') depth++;
    else if (token === '}') depth--;
    if (!token.startsWith('lua ')) inStatement = false;
  });
  return depths;
}

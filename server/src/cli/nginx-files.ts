// Which files a directory walk picks up. Names decide, except for template extensions that Dokku and others also use
// for YAML, TOML and compose files: those are sniffed.
import path from 'node:path';
import { readRegularFilePrefix } from '../core/read-file.js';

const SNIFFED_EXTENSIONS = ['.sigil', '.tmpl'];
/**
 * How much of a template is sniffed. One statement line decides, and real templates have one in their first lines;
 * a bound keeps a huge file (or the language server scanning a workspace) from being read whole just to be named.
 */
export const SNIFF_BYTES = 64 * 1024;

export function isNginxFile(filePath: string): boolean {
  const name = path.basename(filePath);
  if (name.endsWith('.conf') || name.endsWith('.nginx') || name.startsWith('nginx.conf')) return true;
  if (SNIFFED_EXTENSIONS.some((extension) => name.endsWith(extension))) return looksLikeNginxFile(filePath);
  return false;
}

function looksLikeNginxFile(filePath: string): boolean {
  const read = readRegularFilePrefix(filePath, SNIFF_BYTES);
  // Not sniffable (unreadable, a FIFO, a device): keep it, so reading it again later reports the problem with its
  // path instead of silently dropping the file. Never read: a FIFO would block, a device never end.
  if (read.kind !== 'read') return true;
  const text = read.bytes.toString('utf8');
  // A cut file's last line is partial (and may end inside a UTF-8 sequence): only whole lines are judged.
  return looksLikeNginx(read.truncated ? text.slice(0, text.lastIndexOf('\n') + 1) : text);
}

/**
 * One line shaped like an nginx statement is enough (Dokku's hsts.conf.sigil is a single `add_header ...;`):
 * a lower-case directive name, white space, arguments, then `;`, `{` or `}` at the end of the line. The white space
 * right after the name rules out YAML (`key: value`) and TOML (`key = value`); leading and trailing template actions
 * (`{{ if $.X }}listen 443;{{ end }}`) are allowed.
 *
 * Written as a scan rather than a regular expression: the obvious one (`^[ \t]*(?:\{\{.*?\}\}[ \t]*)*[a-z_]…$`)
 * backtracks exponentially on a line of `{{}}`s that does not match, and the language server runs this on every
 * workspace file. Lines end at `\n` (a `\r` before it is dropped); the scan is linear in the text's length.
 */
export function looksLikeNginx(text: string): boolean {
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end);
    if (isStatementLine(line)) return true;
    start = end + 1;
  }
  return false;
}

const CR = 0x0d;

const isBlank = (char: string | undefined) => char === ' ' || char === '\t';
const isNameStart = (char: string | undefined) => char !== undefined && ((char >= 'a' && char <= 'z') || char === '_');
const isNameChar = (char: string | undefined) => isNameStart(char) || (char !== undefined && char >= '0' && char <= '9');
/** JavaScript's `\s`, one UTF-16 unit. */
const isSpace = (char: string) => /^\s$/.test(char);
const isTerminator = (char: string | undefined) => char === ';' || char === '{' || char === '}';

/**
 * A template action `{{…}}` may run to ANY later `}}` on the line (`{{ a }} b }}` is one action), and several actions
 * in a row are then one action too. So each question "can an action followed by X start here" becomes "is there a
 * `}}` at or after here followed by X", answered for every position by one pass from the right.
 */
function isStatementLine(line: string): boolean {
  const n = line.length;
  // nextNonBlank[i]: the first position >= i that is not a space or tab (n if none).
  const nextNonBlank = new Int32Array(n + 1);
  nextNonBlank[n] = n;
  for (let i = n - 1; i >= 0; i--) nextNonBlank[i] = isBlank(line[i]) ? nextNonBlank[i + 1]! : i;
  // `[ \t]*(#.*)?$` matches from i.
  const endsHere = (i: number) => nextNonBlank[i] === n || line[nextNonBlank[i]!] === '#';
  // closeThenEnd[i]: some `}}` at or after i is followed by `[ \t]*(#.*)?$`.
  const closeThenEnd = new Uint8Array(n + 2);
  for (let i = n - 2; i >= 0; i--) {
    closeThenEnd[i] = closeThenEnd[i + 1]! || (line[i] === '}' && line[i + 1] === '}' && endsHere(i + 2)) ? 1 : 0;
  }
  // `[ \t]*(?:\{\{.*?\}\}[ \t]*)*(?:#.*)?$` matches from i: what may follow the statement's `;`, `{` or `}`.
  const trailerFrom = (i: number) => {
    const at = nextNonBlank[i]!;
    return endsHere(i) || (line[at] === '{' && line[at + 1] === '{' && closeThenEnd[at + 2] === 1);
  };
  // terminatorFrom[k]: `[ \t]*[;{}]` + trailer matches from k; anyTerminatorFrom[k]: it does from some k' >= k.
  const anyTerminatorFrom = new Uint8Array(n + 2);
  for (let k = n - 1; k >= 0; k--) {
    const at = nextNonBlank[k]!;
    const terminatorHere = at < n && isTerminator(line[at]) && trailerFrom(at + 1);
    anyTerminatorFrom[k] = anyTerminatorFrom[k + 1]! || terminatorHere ? 1 : 0;
  }
  const terminatorFrom = (k: number) => {
    const at = nextNonBlank[k]!;
    return at < n && isTerminator(line[at]) && trailerFrom(at + 1);
  };
  // A directive name at s, then either the terminator, or blanks, an argument start (not `=`, `:` or white space)
  // and anything up to a terminator.
  const statementAt = (s: number) => {
    if (!isNameStart(line[s])) return false;
    let end = s + 1;
    while (isNameChar(line[end])) end++;
    if (terminatorFrom(end)) return true;
    if (!isBlank(line[end])) return false;
    const argument = nextNonBlank[end]!;
    const first = line[argument];
    return first !== undefined && first !== '=' && first !== ':' && !isSpace(first) && anyTerminatorFrom[argument + 1] === 1;
  };
  // Where the name may start: after the leading blanks, or after any `}}` closing a leading action (and blanks).
  const start = nextNonBlank[0]!;
  if (statementAt(start)) return true;
  if (line[start] !== '{' || line[start + 1] !== '{') return false;
  for (let close = line.indexOf('}}', start + 2); close !== -1; close = line.indexOf('}}', close + 1)) {
    if (statementAt(nextNonBlank[close + 2]!)) return true;
  }
  return false;
}

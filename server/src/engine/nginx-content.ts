// Whether a text whose name says nothing (a Debian `sites-available/gitlab-ssl`, an envsubst `default.conf.template`,
// an Ansible `site.j2`) is nginx configuration. `looksLikeNginx` (nginx-files.ts) accepts one statement-shaped line,
// which is right for Dokku's `.sigil` files but would claim half of /etc and every extensionless script; this sniff
// asks for nginx itself: a directive only nginx has, and a text that is mostly nginx-shaped lines.
//
// One pass over the lines, a bounded amount of work per character, no regular expression, no copy of a line: the
// CLI walk and the language server run it on every candidate file (on at most SNIFF_BYTES of it).
import {
  assigns, braceBalance, followingWord, isBlankCode, isJsSpace, isTerminatorCode, leadingWordEnd, nextEquals, nextSpecial,
  plainLineEnd, templateLine,
} from './nginx-content-lines.js';

export interface ContentVerdict {
  nginx: boolean;
  /** Why not, for --debug: "no nginx directive", "mostly not nginx syntax (12 of 40 lines)". */
  reason?: string;
}

/**
 * Directive names (and name prefixes ending in `_`) that are nginx's and nobody else's in a line of the shape
 * `name args;` / `name args {`. Generic words nginx also uses (`if`, `set`, `return`, `break`, `include`, `index`,
 * `root`, `user`, `default`, `zone`) are deliberately absent: JavaScript and shell have lines like `return x;` and
 * `if (x) {`, and BIND's named.conf has `zone "example.com" {`. Two of them count in their nginx-only shapes
 * (see isNginxStatement).
 */
const NGINX_NAMES: ReadonlySet<string> = new Set([
  'access_log', 'add_header', 'add_trailer', 'aio', 'alias', 'allow', 'auth_basic', 'auth_basic_user_file',
  'auth_request', 'autoindex', 'charset', 'charset_map', 'charset_types', 'chunked_transfer_encoding', 'default_type',
  'deny', 'directio', 'error_log', 'error_page', 'etag', 'events', 'expires', 'geo', 'gzip', 'gzip_static', 'gunzip',
  'hash', 'http', 'http2', 'http3', 'ignore_invalid_headers', 'internal', 'ip_hash', 'keepalive',
  'large_client_header_buffers', 'least_conn', 'least_time', 'limit_except', 'limit_rate', 'listen', 'load_module',
  'location', 'log_format', 'log_not_found', 'mail', 'map', 'max_ranges', 'merge_slashes', 'more_clear_headers',
  'more_set_headers', 'msie_padding', 'multi_accept', 'open_file_cache', 'open_log_file_cache', 'output_buffers',
  'pcre_jit', 'port_in_redirect', 'postpone_output', 'real_ip_header', 'real_ip_recursive', 'recursive_error_pages',
  'reset_timedout_connection', 'resolver', 'resolver_timeout', 'rewrite', 'rewrite_log', 'satisfy', 'sendfile',
  'server', 'server_name', 'server_tokens', 'set_real_ip_from', 'split_clients', 'ssi', 'stream', 'stub_status',
  'sub_filter', 'sub_filter_once', 'sub_filter_types', 'tcp_nodelay', 'tcp_nopush', 'try_files', 'types',
  'underscores_in_headers', 'upstream', 'valid_referers', 'worker_connections', 'worker_processes',
]);
const BLOCK_ONLY_NAMES: ReadonlySet<string> = new Set([
  'events', 'http', 'stream', 'mail', 'upstream', 'location', 'types', 'map', 'geo', 'split_clients', 'charset_map',
  'limit_except',
]);
const NGINX_PREFIXES = [
  'auth_jwt_', 'client_', 'fastcgi_', 'grpc_', 'gzip_', 'http2_', 'keepalive_', 'limit_conn', 'limit_req',
  'lua_', 'memcached_', 'proxy_', 'quic_', 'scgi_', 'ssl_', 'uwsgi_', 'variables_hash_', 'worker_',
  'server_names_hash_', 'map_hash_', 'types_hash_', 'open_file_cache_', 'js_', 'perl_', 'njs_',
];
/** OpenResty's `content_by_lua_block {` and friends. */
const isNginxName = (name: string) =>
  NGINX_NAMES.has(name) || NGINX_PREFIXES.some((prefix) => name.startsWith(prefix)) || name.includes('_by_lua');

const OTHER = 0;
const NGINX_ONLY = 1;
const BLOCK_ONLY = 2;
/** `set` and `include`, nginx's in some shapes only. */
const SHAPED = 3;
/** What each name is, by the sets above; the same few hundred names come back on every line of every file. */
const nameKinds = new Map<string, number>();
const MAX_NAME_KINDS = 4096;
const MAX_NAME_LENGTH = 64;

function nameKind(name: string): number {
  let kind = nameKinds.get(name);
  if (kind === undefined) {
    kind = BLOCK_ONLY_NAMES.has(name) ? BLOCK_ONLY : isNginxName(name) ? NGINX_ONLY : name === 'set' || name === 'include' ? SHAPED : OTHER;
    // A copy owning its characters as the key: a slice of 13 or more keeps the whole file's text alive.
    if (nameKinds.size < MAX_NAME_KINDS && name.length <= MAX_NAME_LENGTH) nameKinds.set(Array.from(name).join(''), kind);
  }
  return kind;
}

/**
 * A line that only nginx writes: a directive above, or `set $var ...;` and `include path;` (an unquoted path: PHP's
 * and BIND's includes are quoted), whose words alone other languages share. Not `if ($x) {`: jQuery-style JavaScript
 * writes exactly that. The line is [from, to) of `line`, and starts with `name`.
 */
function isNginxStatement(name: string, line: string, from: number, to: number): boolean {
  const endsWithSemicolon = line.charCodeAt(to - 1) === 0x3b;
  const kind = nameKind(name);
  // `events;` is a JavaScript expression statement; nginx's `events` always opens a block.
  if (kind === BLOCK_ONLY) return !endsWithSemicolon;
  if (kind === NGINX_ONLY) return true;
  if (kind === OTHER) return false;
  let rest = from + name.length;
  while (rest < to && isJsSpace(line.charCodeAt(rest))) rest++;
  if (rest === to || !endsWithSemicolon) return false;
  const first = line.charCodeAt(rest);
  if (name === 'set') return first === 0x24; // `$`: not a JavaScript `set $x(v) {`
  return first !== 0x22 && first !== 0x27;
}

/**
 * Share of the significant lines that must be nginx-shaped. Real configs sit near 1 (their misses are multi-line
 * values and template logic); scripts and prose that happen to mention `listen 80;` sit far below.
 */
const MIN_SHAPED_SHARE = 0.7;
/** A directive left open on its line (`log_format main` + quoted lines) carries on at most this many lines. */
const MAX_CONTINUATION_LINES = 64;

/**
 * `evidence`, when given, receives the lines taken as nginx-only statements (for tests and the measure script).
 *
 * Without `evidence`, the scan stops as soon as the answer is yes whatever the rest holds: a directive seen, and the
 * nginx-shaped lines still at least MIN_SHAPED_SHARE if every line left were not (the lines left are counted up front,
 * one native search per line). A config is then read to about three quarters of its lines; a verdict of no (whose
 * reason gives the counts) always reads to the end.
 */
export function sniffNginxContent(text: string, evidence?: string[]): ContentVerdict {
  let nginxNames = 0;
  let shaped = 0;
  let other = 0;
  let continuation = 0;
  /** Lines of the directive still open, counted once it closes. */
  let pending = 0;
  let luaDepth = 0;
  let inTemplateComment = false;
  let linesLeft = evidence === undefined ? lineCount(text) : Number.POSITIVE_INFINITY;
  // The next character plainLineEnd acts on, and the next `=`, each searched again only once passed.
  let special = -1;
  let equals = -1;
  for (let start = 0; start < text.length; ) {
    if (nginxNames > 0 && continuation === 0 && shaped >= MIN_SHAPED_SHARE * (shaped + other + linesLeft)) {
      return { nginx: true };
    }
    linesLeft--;
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    // The line is [from, to) of `line`: of the text itself, or of its rewrite when it holds template syntax.
    let line = text;
    let inPlace = true;
    let from = start;
    if (special < start) special = nextSpecial(text, start);
    let to = inTemplateComment ? -1 : special >= end ? end : plainLineEnd(text, start, end, special);
    if (to === -1) {
      const rewritten = templateLine(text.slice(start, end), inTemplateComment);
      inTemplateComment = rewritten.inTemplateComment;
      line = rewritten.text;
      inPlace = false;
      from = 0;
      to = line.length;
    } else {
      while (from < to && isBlankCode(text.charCodeAt(from))) from++;
      while (to > from && isBlankCode(text.charCodeAt(to - 1))) to--;
    }
    start = end + 1;
    if (from === to) continue; // blank, a comment, or template logic only: says nothing either way
    // assigns() looks for ` = ` after the line's first character: a line of the text without any `=` there has none.
    if (inPlace && equals <= from) equals = nextEquals(text, from + 1);
    const mayAssign = !inPlace || equals < to - 1;
    const terminated = isTerminatorCode(line.charCodeAt(to - 1));
    if (luaDepth > 0) {
      // Lua code inside `*_by_lua_block { … }`: neither nginx nor evidence against it, up to the closing brace.
      luaDepth += braceBalance(line, from, to);
      continue;
    }
    if (continuation > 0) {
      // Inside a directive opened on an earlier line (`log_format main` + quoted lines): nginx's if a `;` or `{`
      // closes it within MAX_CONTINUATION_LINES; otherwise the opening line was a word in prose or code.
      pending++;
      if (terminated) {
        nginxNames++;
        shaped += pending;
        continuation = 0;
      } else if (--continuation === 0) {
        other += pending;
      }
      continue;
    }
    const wordEnd = leadingWordEnd(line, from, to);
    const followedBy = wordEnd === from ? undefined : followingWord(line, wordEnd, to);
    const name = followedBy === 'nginx' ? line.slice(from, wordEnd) : '';
    if (name !== '' && isNginxStatement(name, line, from, to) && !(mayAssign && assigns(line, from, to))) {
      evidence?.push(line.slice(from, to));
      if (!terminated) {
        continuation = MAX_CONTINUATION_LINES;
        pending = 1;
        continue;
      }
      nginxNames++;
      shaped++;
      if (name.endsWith('_by_lua_block')) luaDepth = Math.max(braceBalance(line, from, to), 0);
    } else if (terminated && followedBy !== 'other' && !(mayAssign && assigns(line, from, to))) {
      shaped++; // `}`, `text/html html;` in types, `~^/old /new;` in a map, an unknown or third-party directive
    } else {
      other++;
    }
  }
  if (continuation > 0) other += pending; // the text ended inside it
  if (nginxNames === 0) return { nginx: false, reason: 'no nginx directive' };
  const total = shaped + other;
  if (shaped < MIN_SHAPED_SHARE * total) {
    return { nginx: false, reason: `mostly not nginx syntax (${shaped} of ${total} lines)` };
  }
  return { nginx: true };
}

/** Lines the loop above visits: one per `\n`, and one more for text after the last. */
function lineCount(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return text.length === 0 || text.charCodeAt(text.length - 1) === 0x0a ? lines : lines + 1;
}

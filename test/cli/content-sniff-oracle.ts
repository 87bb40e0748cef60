// The content sniff as it was before it scanned lines in place (commit dfc9cd1, server/src/engine/nginx-content.ts),
// kept verbatim as the oracle the faster scan must agree with (test/cli/nginx-sniff-agreement.test.ts).
// Whether a text whose name says nothing (a Debian `sites-available/gitlab-ssl`, an envsubst `default.conf.template`,
// an Ansible `site.j2`) is nginx configuration. `looksLikeNginx` (nginx-files.ts) accepts one statement-shaped line,
// which is right for Dokku's `.sigil` files but would claim half of /etc and every extensionless script; this sniff
// asks for nginx itself: a directive only nginx has, and a text that is mostly nginx-shaped lines.
//
// One pass over the lines, a bounded amount of work per character, no regular expression: the CLI walk and the
// language server run it on every candidate file (on at most SNIFF_BYTES of it).

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

/**
 * A line that only nginx writes: a directive above, or `set $var ...;` and `include path;` (an unquoted path: PHP's
 * and BIND's includes are quoted), whose words alone other languages share. Not `if ($x) {`: jQuery-style JavaScript
 * writes exactly that.
 */
function isNginxStatement(name: string, line: string): boolean {
  // `events;` is a JavaScript expression statement; nginx's `events` always opens a block.
  if (BLOCK_ONLY_NAMES.has(name)) return !line.endsWith(';');
  if (isNginxName(name)) return true;
  const rest = line.slice(name.length).trimStart();
  if (name === 'set') return rest.startsWith('$') && line.endsWith(';'); // not a JavaScript `set $x(v) {`
  if (name === 'include') return rest !== '' && rest[0] !== '"' && rest[0] !== "'" && rest.endsWith(';');
  return false;
}

/**
 * Share of the significant lines that must be nginx-shaped. Real configs sit near 1 (their misses are multi-line
 * values and template logic); scripts and prose that happen to mention `listen 80;` sit far below.
 */
const MIN_SHAPED_SHARE = 0.7;
/** A directive left open on its line (`log_format main` + quoted lines) carries on at most this many lines. */
const MAX_CONTINUATION_LINES = 64;

/** `evidence`, when given, receives the lines taken as nginx-only statements (for tests and the measure script). */
export function oracleSniffNginxContent(text: string, evidence?: string[]): ContentVerdict {
  let nginxNames = 0;
  let shaped = 0;
  let other = 0;
  let continuation = 0;
  /** Lines of the directive still open, counted once it closes. */
  let pending = 0;
  let luaDepth = 0;
  let inTemplateComment = false;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    const stripped = stripLine(raw, inTemplateComment);
    inTemplateComment = stripped.inTemplateComment;
    const line = stripped.text;
    if (line === '') continue; // blank, a comment, or template logic only: says nothing either way
    const name = leadingName(line);
    const terminated = isTerminator(line[line.length - 1]);
    if (luaDepth > 0) {
      // Lua code inside `*_by_lua_block { … }`: neither nginx nor evidence against it, up to the closing brace.
      luaDepth += braceBalance(line);
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
    if (name !== undefined && name.followedBy === 'nginx' && isNginxStatement(name.word, line) && !assigns(line)) {
      evidence?.push(line);
      if (!terminated) {
        continuation = MAX_CONTINUATION_LINES;
        pending = 1;
        continue;
      }
      nginxNames++;
      shaped++;
      if (name.word.endsWith('_by_lua_block')) luaDepth = Math.max(braceBalance(line), 0);
    } else if (terminated && (name === undefined || name.followedBy !== 'other') && !assigns(line)) {
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

const isTerminator = (char: string | undefined) => char === ';' || char === '{' || char === '}';
const isBlank = (code: number) => code === 0x20 || code === 0x09 || code === 0x0d;

/**
 * A line without its comment, its Go / Jinja2 template syntax and its outer white space. `{{ … }}`, `{% … %}` and
 * `{# … #}` inside a line become one `x` (they stand for an argument); the ones that open or close a line are dropped,
 * so `{% if ssl %}listen 443 ssl;{% endif %}` is the statement it guards. A `{#` that opens a line and is not closed
 * on it starts a Jinja2 comment running to its `#}`; one further right ends only its own line (`server {# comment`
 * is an nginx block and a comment). `#` starts a comment outside quotes, as nginx reads it.
 */
function stripLine(line: string, inTemplateComment: boolean): { text: string; inTemplateComment: boolean } {
  let from = 0;
  if (inTemplateComment) {
    const close = line.indexOf('#}');
    if (close === -1) return { text: '', inTemplateComment: true };
    from = close + 2;
  }
  let out = '';
  let quote = '';
  for (let i = from; i < line.length; i++) {
    const char = line[i]!;
    if (quote !== '') {
      out += char;
      if (char === '\\') out += line[++i] ?? '';
      else if (char === quote) quote = '';
      continue;
    }
    if (char === '{' && (line[i + 1] === '{' || line[i + 1] === '%' || line[i + 1] === '#')) {
      const closer = line[i + 1] === '{' ? '}}' : `${line[i + 1]}}`;
      const close = line.indexOf(closer, i + 2);
      if (close === -1) {
        const opensComment = line[i + 1] === '#' && out.trim() === '';
        return { text: trimAction(out), inTemplateComment: opensComment };
      }
      out += '\u0000'; // a placeholder, trimmed away at either end of the line
      i = close + 1;
      continue;
    }
    if (char === '#' && (out === '' || isBlank(out.charCodeAt(out.length - 1)) || isTerminator(out[out.length - 1]))) break;
    if (char === '"' || char === "'") quote = char;
    out += char;
  }
  return { text: trimAction(out), inTemplateComment: false };
}

/** Outer blanks and template placeholders off; inner placeholders become `x`. */
function trimAction(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (isBlank(text.charCodeAt(start)) || text.charCodeAt(start) === 0)) start++;
  while (end > start && (isBlank(text.charCodeAt(end - 1)) || text.charCodeAt(end - 1) === 0)) end--;
  return text.slice(start, end).replaceAll('\u0000', 'x');
}

/**
 * `x = y` outside quotes, on a line that is not nginx's `if (… = …)`: an assignment in code (Perl's `my $x = 1;`, C's
 * `a = b;`), whose lines otherwise end with `;`, `{` and `}` just as nginx's do.
 */
function assigns(line: string): boolean {
  if (line.startsWith('if ') || line.startsWith('if(')) return false;
  let quote = '';
  for (let i = 1; i < line.length - 1; i++) {
    const char = line[i];
    if (quote !== '') {
      if (char === '\\') i++;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '=' && isBlank(line.charCodeAt(i + 1)) && isBlank(line.charCodeAt(i - 1))) return true;
  }
  return false;
}

/** `{` minus `}` on a (comment-stripped) line, outside quotes. */
function braceBalance(line: string): number {
  let balance = 0;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== '') {
      if (char === '\\') i++;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '{') balance++;
    else if (char === '}') balance--;
  }
  return balance;
}

/**
 * The lower-case word a line starts with, and what follows it. `nginx`: white space, `;`, `{` or nothing (the
 * arguments go on below), as after a directive name. `other`: `key: value`, `key = value`, `call(...)`, `a[i]` --
 * other languages. `part`: anything else (`text/html` in `types`, `example.com` in a `map`, `listen-on` in BIND):
 * not a directive, but not evidence against nginx either.
 */
function leadingName(line: string): { word: string; followedBy: 'nginx' | 'other' | 'part' } | undefined {
  const start = line.charCodeAt(0);
  if (!(start >= 0x61 && start <= 0x7a) && start !== 0x5f) return undefined; // [a-z_]
  let end = 1;
  for (; end < line.length; end++) {
    const code = line.charCodeAt(end);
    if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x5f)) break;
  }
  const word = line.slice(0, end);
  const next = line[end];
  if (next === undefined || next === ';' || next === '{') return { word, followedBy: 'nginx' };
  if (next === ':' || next === '=' || next === '(' || next === '[') return { word, followedBy: 'other' };
  if (next !== ' ' && next !== '\t') return { word, followedBy: 'part' };
  let argument = end;
  while (line[argument] === ' ' || line[argument] === '\t') argument++;
  // `key = v`, `key: v`, and compound assignments (`hash |= 0;`, `n += 1;`).
  const [first, second] = [line[argument], line[argument + 1]];
  const assigns = first === '=' || first === ':' || (second === '=' && first !== undefined && '|&+-*/%^<>!'.includes(first));
  return { word, followedBy: assigns ? 'other' : 'nginx' };
}

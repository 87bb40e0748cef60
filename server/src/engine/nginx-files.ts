// Which files a directory walk picks up, and why it leaves the others (--debug). Names decide first: nginx's own
// names (`nginx.conf*`, `*.nginx`) are claimed, well-known other kinds (data, code, documents, archives...) never are.
// Everything else is judged by a bounded prefix of its text: Dokku's `.sigil` and Go `.tmpl` templates by one nginx
// statement line (those extensions also hold YAML and TOML), and the rest (`*.conf`, extensionless Debian site files,
// envsubst `*.template`, Jinja2 `*.j2`) by the stricter content sniff of nginx-content.ts. `*.conf` is everybody's
// extension (fontconfig's XML in `fonts/conf.d/`, supervisor's INI in `conf.d/`, 71 non-nginx files in a Debian
// /etc): its name says "configuration", not "nginx". The language server's workspace index and the VS Code
// extension's document claim (document-claim.ts) apply this same rule.
import { statSync } from 'node:fs';
import path from 'node:path';
import { readRegularFilePrefix } from '../util/read-file.js';
import { sniffNginxContent } from './nginx-content.js';

/**
 * How much of a file is sniffed. Real configs show what they are in their first lines; a bound keeps a huge file (or
 * the language server scanning a workspace) from being read whole just to be named.
 */
export const SNIFF_BYTES = 64 * 1024;
/** A file without an nginx name larger than this is data (a log, a dump, a generated list), not a config to find. */
export const MAX_SNIFFED_FILE_BYTES = 1024 * 1024;

/**
 * Directories never walked: version control, installed dependencies, virtual environments and caches. Other
 * dot-directories are walked on purpose: nginx configs live in `.platform/nginx/` (AWS Elastic Beanstalk),
 * `.docker/`, `.devcontainer/` or `.dokku/`.
 */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  '.git', '.hg', '.svn', '.bzr', 'node_modules', 'bower_components', 'vendor', '.venv', 'venv', '__pycache__',
  '.tox', '.terraform',
]);

/** Template extensions whose text is sniffed for nginx; the first two with the lenient one-statement test. */
const LENIENT_TEMPLATE_EXTENSIONS = ['.sigil', '.tmpl'];
const TEMPLATE_EXTENSIONS = [...LENIENT_TEMPLATE_EXTENSIONS, '.template', '.j2', '.jinja', '.jinja2'];

/** Extensions (lower case, no dot) that are never nginx, so never read to find out. */
const OTHER_EXTENSIONS: ReadonlySet<string> = new Set([
  // data and documents
  'json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'xml', 'xsd', 'xsl', 'plist', 'csv', 'tsv', 'md', 'markdown',
  'rst', 'adoc', 'html', 'htm', 'css', 'scss', 'sass', 'less', 'svg', 'ipynb', 'proto', 'graphql', 'sql', 'log',
  'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'rtf', 'tex', 'po', 'mo', 'pot',
  // code
  'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'vue', 'svelte', 'py', 'pyc', 'pyi', 'go', 'rb', 'erb',
  'php', 'java', 'kt', 'kts', 'scala', 'groovy', 'gradle', 'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'm', 'mm',
  'cs', 'fs', 'swift', 'rs', 'lua', 'pl', 'pm', 'r', 'dart', 'ex', 'exs', 'erl', 'hs', 'clj', 'elm', 'zig', 'nim',
  'sh', 'bash', 'zsh', 'fish', 'ps1', 'psm1', 'bat', 'cmd', 'awk', 'sed', 'vim', 'el', 'tf', 'hcl', 'nix', 'mk',
  'cmake', 'dockerfile', 'wasm', 'map',
  // lock files, keys and certificates (never read: they may be secrets)
  'lock', 'sum', 'pem', 'crt', 'cer', 'key', 'csr', 'der', 'p12', 'pfx', 'jks', 'gpg', 'asc', 'pub',
  // images, fonts, media, archives, binaries
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'ico', 'bmp', 'tif', 'tiff', 'psd', 'woff', 'woff2', 'ttf', 'otf',
  'eot', 'mp3', 'mp4', 'wav', 'ogg', 'webm', 'mov', 'avi', 'flac', 'zip', 'tar', 'gz', 'tgz', 'bz2', 'xz', 'zst',
  '7z', 'rar', 'jar', 'war', 'deb', 'rpm', 'apk', 'exe', 'dll', 'so', 'dylib', 'a', 'o', 'class', 'bin', 'iso',
  'img', 'sqlite', 'db', 'parquet', 'pickle', 'pkl', 'npy', 'onnx', 'pt', 'dat', 'br',
]);
/** Whole names (lower case) that are never nginx: build files, licences, lock files, editor and VCS settings. */
const OTHER_NAMES: ReadonlySet<string> = new Set([
  'dockerfile', 'containerfile', 'makefile', 'gnumakefile', 'jenkinsfile', 'vagrantfile', 'gemfile', 'rakefile',
  'procfile', 'brewfile', 'podfile', 'justfile', 'caddyfile', 'license', 'licence', 'copying', 'notice', 'authors',
  'contributors', 'changelog', 'changes', 'readme', 'todo', 'codeowners', 'go.mod', 'go.sum', 'yarn.lock',
  '.gitignore', '.gitattributes', '.gitmodules', '.dockerignore', '.npmignore', '.editorconfig', '.npmrc',
  '.prettierrc', '.eslintrc', '.babelrc', '.nvmrc', '.env', 'known_hosts', 'authorized_keys', 'id_rsa', 'id_ed25519',
]);

/**
 * `read`: the whole file, when judging it read all of it (its UTF-8 text and its size in bytes): the CLI checks that
 * text rather than reading the file a second time.
 */
export type FileClaim = { claimed: true; read?: { text: string; bytes: number } } | { claimed: false; reason: string };

/** The part of a decision the name alone makes. */
export type NameClaim =
  | { kind: 'nginx' }
  | { kind: 'never'; reason: string }
  /**
   * Sniff the text: `lenient` for `.sigil`/`.tmpl` (one statement line), `content` for everything else. `conf`: a
   * `*.conf`, sniffed whatever its size (a generated 5 MB blocklist of `deny` lines is nginx; other files over
   * MAX_SNIFFED_FILE_BYTES are data) and, like a template, kept when it cannot be read.
   */
  | { kind: 'sniff'; test: 'lenient' | 'content'; template: boolean; conf: boolean };

export function claimByName(fileName: string): NameClaim {
  const name = fileName.toLowerCase();
  if (name.endsWith('.nginx') || name.startsWith('nginx.conf')) return { kind: 'nginx' };
  const template = TEMPLATE_EXTENSIONS.find((extension) => name.endsWith(extension));
  // `compose.yml.j2`, `settings.json.template`: what the template renders decides.
  const rendered = template === undefined ? name : name.slice(0, -template.length);
  const dot = rendered.lastIndexOf('.');
  const extension = dot > 0 ? rendered.slice(dot + 1) : '';
  if (OTHER_EXTENSIONS.has(extension)) return { kind: 'never', reason: `a .${extension} file` };
  const base = OTHER_NAMES.has(rendered) || /^(?:readme|license|licence|changelog)[.-]/.test(rendered);
  if (base) return { kind: 'never', reason: 'a build, licence or editor file' };
  const lenient = template !== undefined && LENIENT_TEMPLATE_EXTENSIONS.includes(template);
  return { kind: 'sniff', test: lenient ? 'lenient' : 'content', template: template !== undefined, conf: name.endsWith('.conf') };
}

/**
 * Whether a file this name rule sniffs is passed over above MAX_SNIFFED_FILE_BYTES: one whose name says nothing is
 * data when that large; a `*.conf` or a template is sniffed whatever its size.
 */
export function sizeLimited(byName: Extract<NameClaim, { kind: 'sniff' }>): boolean {
  return byName.test === 'content' && !byName.conf;
}

export const TOO_LARGE_TO_SNIFF = 'larger than 1 MB';

/** Judges a sniffed file's first bytes (`truncated`: there was more). */
export function claimByContent(test: 'lenient' | 'content', bytes: Buffer, truncated: boolean): FileClaim {
  // Git's test for binary: a NUL byte. Text configs never contain one. (Most files are shorter than that: searched
  // without a view made of them.)
  if ((bytes.length <= BINARY_SNIFF_BYTES ? bytes : bytes.subarray(0, BINARY_SNIFF_BYTES)).includes(0)) return { claimed: false, reason: 'binary' };
  const text = bytes.toString('utf8');
  const read = truncated ? undefined : { text, bytes: bytes.length };
  // A cut file's last line is partial (and may end inside a UTF-8 sequence): only whole lines are judged.
  const whole = truncated ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
  if (test === 'lenient') return looksLikeNginx(whole) ? { claimed: true, read } : { claimed: false, reason: 'no nginx statement' };
  const verdict = sniffNginxContent(whole);
  return verdict.nginx ? { claimed: true, read } : { claimed: false, reason: verdict.reason ?? 'not nginx' };
}

/** Git's heuristic: a NUL byte in the first 8 KB means binary. */
const BINARY_SNIFF_BYTES = 8192;

/** What classifyFile reads a file's prefix into (made on first use). */
let sniffBuffer: Buffer | undefined;

/** `fileName`: the base name, when the caller has it already (a directory walk listed it). */
export function classifyFile(filePath: string, fileName = path.basename(filePath)): FileClaim {
  const byName = claimByName(fileName);
  if (byName.kind === 'nginx') return { claimed: true };
  if (byName.kind === 'never') return { claimed: false, reason: byName.reason };
  if (sizeLimited(byName)) {
    const size = sizeOf(filePath);
    if (size !== undefined && size > MAX_SNIFFED_FILE_BYTES) return { claimed: false, reason: TOO_LARGE_TO_SNIFF };
  }
  sniffBuffer ??= Buffer.allocUnsafe(SNIFF_BYTES + 1);
  // Into the one buffer: claimByContent decodes the bytes before anything else is read into it.
  const read = readRegularFilePrefix(filePath, SNIFF_BYTES, sniffBuffer);
  if (read.kind !== 'read') {
    // A template or `*.conf` that cannot be sniffed (unreadable, a FIFO, a device) is kept, so reading it again
    // reports the problem with its path (a `conf.d/secret.conf` without read permission is an error to tell, not a
    // file to pass over). Never read: a FIFO would block, a device never end. A file whose name says nothing is no
    // more likely nginx than anything else in /etc: skipped, and --debug says why.
    return byName.template || byName.conf ? { claimed: true } : { claimed: false, reason: 'unreadable' };
  }
  return claimByContent(byName.test, read.bytes, read.truncated);
}

export function isNginxFile(filePath: string): boolean {
  return classifyFile(filePath).claimed;
}

function sizeOf(filePath: string): number | undefined {
  try {
    return statSync(filePath).size;
  } catch {
    return undefined; // reading it says what is wrong
  }
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

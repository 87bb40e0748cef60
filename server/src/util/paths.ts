// How paths and file-system failures are shown to people.
import path from 'node:path';

/**
 * Relative to the working directory when inside it (short, clickable in terminals); absolute otherwise. Printable:
 * a name holding control characters (a terminal escape sequence, a newline) is quoted and escaped (printablePath).
 */
export function displayPath(absolutePath: string, cwd: string): string {
  return printablePath(relativeIfInside(absolutePath, cwd));
}

/** displayPath without the escaping, for where the exact name matters (a patch's file names). */
export function relativeIfInside(absolutePath: string, cwd: string): string {
  // Both normal (every file a walk lists, a working directory that is not `/`): the answer is the tail below the
  // working directory, or the path itself outside it (where path.relative starts with `..`), found without
  // normalizing both paths again for every file shown.
  if (isNormalAbsolute(absolutePath) && isNormalAbsolute(cwd)) {
    if (absolutePath === cwd) return '.';
    const below = absolutePath.length > cwd.length && absolutePath.charCodeAt(cwd.length) === SLASH && absolutePath.startsWith(cwd);
    return below ? absolutePath.slice(cwd.length + 1) : absolutePath;
  }
  const relative = path.relative(cwd, absolutePath);
  if (relative === '') return '.';
  return leavesDirectory(relative) ? absolutePath : relative;
}

const SLASH = 0x2f;

/**
 * Whether path.resolve(p) is p itself: an absolute POSIX path without an empty, `.` or `..` segment and without a
 * trailing separator (every segment follows a `/`, so none of them starts with `.` when `/.` is absent; a dot
 * directory such as `.platform` is left to path.resolve, which keeps it).
 */
export function isNormalAbsolute(p: string): boolean {
  return (
    path.sep === '/' && p.charCodeAt(0) === SLASH && p.charCodeAt(p.length - 1) !== SLASH && !p.includes('//') && !p.includes('/.')
  );
}

/**
 * path.join(base, relative), by concatenation when base is absolute and normal and relative is a plain relative path
 * (no empty segment, none starting with `.`): `include snippets/x.conf;` tried under each prefix of every root.
 */
export function joinedPath(base: string, relative: string): string {
  const first = relative.charCodeAt(0);
  const plain = relative !== '' && first !== SLASH && first !== DOT && !relative.includes('//') && !relative.includes('/.');
  return plain && isNormalAbsolute(base) ? `${base}/${relative}` : path.join(base, relative);
}

const DOT = 0x2e;

/**
 * path.resolve(p), without its normalizing pass over a path that is already absolute and normal: the walk, the
 * include resolution and the file loader hand such paths to each other, and each resolved them again.
 */
export function resolvedPath(p: string): string {
  return isNormalAbsolute(p) ? p : path.resolve(p);
}

/** Whether a path.relative() result points outside its base: `..` or `../x`, not `..dots.conf`. */
export function leavesDirectory(relative: string): boolean {
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}

/**
 * A file name safe to print: unchanged when it is, else in double quotes with C-style escapes (as git quotes such
 * names), so that `\e]…` or `\e[2J` in a committed file name cannot drive the terminal or forge output lines.
 * Escaped: C0 and C1 controls, DEL, line and paragraph separators, bidirectional overrides ("Trojan Source"), lone
 * surrogates; a byte that was not valid UTF-8 (fileNameFromBytes) shows as `\xHH`.
 */
export function printablePath(name: string): string {
  // Most names are printable ASCII, which is returned as it is: no escaped copy is built for them.
  if (isPrintableAscii(name)) return name;
  let escaped = '';
  let needsQuotes = false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const isPair = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(name.charCodeAt(i + 1));
    if (isPair) {
      escaped += name.slice(i, i + 2);
      i++;
    } else if (code >= 0xdc80 && code <= 0xdcff) {
      needsQuotes = true;
      escaped += `\\x${hex(code - 0xdc00, 2)}`;
    } else if (mustEscape(code)) {
      needsQuotes = true;
      escaped += code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
    } else {
      escaped += code === 0x22 || code === 0x5c ? `\\${name[i]}` : name[i];
    }
  }
  return needsQuotes ? `"${escaped}"` : name;
}

/**
 * `text` with the characters printablePath escapes replaced by `\xHH` or `\uHHHH`, and nothing quoted: for a whole
 * message line, whose file names printablePath has quoted already but which may repeat what was typed.
 */
export function withoutControlCharacters(text: string): string {
  if (isPrintableAscii(text)) return text;
  let result = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      result += text.slice(i, i + 2);
      i++;
    } else {
      result += mustEscape(code) ? (code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`) : text[i];
    }
  }
  return result;
}

/** Only U+0020..U+007E: nothing printablePath or withoutControlCharacters would change. */
function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Control characters, bidi overrides, line separators and lone surrogates: what could rewrite a terminal or a line. */
export function mustEscape(code: number): boolean {
  return (
    code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || code === 0x061c ||
    code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) ||
    (code >= 0xd800 && code <= 0xdfff)
  );
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A directory entry's name, read as bytes, as a string. A name that is not valid UTF-8 cannot round-trip through a
 * JavaScript string (Node turns its bad bytes into U+FFFD, naming a file that does not exist), so each byte of a bad
 * sequence becomes a lone surrogate U+DC80–U+DCFF instead, as Python's "surrogateescape" does: no valid name holds
 * one, so hasUndecodableName() recognises such a path, and printablePath() shows the byte as `\xHH`.
 */
export function fileNameFromBytes(bytes: Buffer): string {
  // Most names are ASCII, which decodes byte for byte: no round trip to check.
  if (isAscii(bytes)) return bytes.toString('latin1');
  const decoded = bytes.toString('utf8');
  if (Buffer.from(decoded, 'utf8').equals(bytes)) return decoded;
  let name = '';
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes[i]!);
    const sequence = length > 0 && i + length <= bytes.length ? decodeStrictly(bytes.subarray(i, i + length)) : undefined;
    if (sequence === undefined) {
      name += String.fromCharCode(0xdc00 + bytes[i]!);
      i++;
    } else {
      name += sequence;
      i += length;
    }
  }
  return name;
}

/** The length of the UTF-8 sequence a lead byte starts; 0 for a byte that cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function decodeStrictly(sequence: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(sequence);
  } catch {
    return undefined;
  }
}

function isAscii(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** True for a path made by fileNameFromBytes from a name that is not valid UTF-8: it cannot be opened by that path. */
export function hasUndecodableName(filePath: string): boolean {
  for (let i = 0; i < filePath.length; i++) {
    const code = filePath.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(filePath.charCodeAt(i + 1))) i++;
    else if (code >= 0xdc80 && code <= 0xdcff) return true;
  }
  return false;
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  EILSEQ: 'not checked: its name is not valid UTF-8 (rename it to check it)',
};

/** `permission denied` rather than Node's `EACCES: permission denied, open '/abs/path'` (the path is shown already). */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && REASONS[code]) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}

/** The error for a path whose name is not valid UTF-8, described by describeFsError (EILSEQ: illegal byte sequence). */
export function undecodableNameError(): NodeJS.ErrnoException {
  return Object.assign(new Error('file name is not valid UTF-8'), { code: 'EILSEQ' });
}

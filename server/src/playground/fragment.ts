// The playground's link contract: `#config=<base64url of the UTF-8 text>&file=<name>&nginx=<version>`. Tests and
// shared links load a config through it; the Share button writes it. Pure: no page needed (test/playground/).

export interface PlaygroundLink {
  text: string;
  fileName: string;
  /** Empty: the CLI's default. */
  nginxVersion: string;
}

/** Each byte as the one character btoa() reads it as. */
const BYTE_CHARACTERS = Array.from({ length: 256 }, (_, byte) => String.fromCharCode(byte));

/** `text` without the `=` padding at its end (a loop: a regular expression for it backtracks on long runs). */
function withoutPadding(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x3d) end--;
  return text.slice(0, end);
}

export function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += BYTE_CHARACTERS[byte]!;
  return withoutPadding(btoa(binary).replace(/\+/g, '-').replace(/\//g, '_'));
}

/** The UTF-8 text of base64url (padding optional); undefined when it is not base64url or not UTF-8. */
export function fromBase64Url(encoded: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(encoded)) return undefined;
  try {
    const binary = atob(withoutPadding(encoded).replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** What a fragment holds; a part it lacks or cannot decode is absent (the page keeps its own). */
export function readFragment(hash: string): Partial<PlaygroundLink> {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const link: Partial<PlaygroundLink> = {};
  const config = params.get('config');
  const text = config === null ? undefined : fromBase64Url(config);
  if (text !== undefined) link.text = text;
  const file = params.get('file');
  // A name, not a path: the page checks one file in a directory of its own.
  if (file && !file.includes('/') && file !== '.' && file !== '..') link.fileName = file;
  const nginx = params.get('nginx');
  if (nginx !== null) link.nginxVersion = nginx;
  return link;
}

export function writeFragment(link: PlaygroundLink): string {
  const params = new URLSearchParams();
  params.set('config', toBase64Url(link.text));
  params.set('file', link.fileName);
  if (link.nginxVersion) params.set('nginx', link.nginxVersion);
  return `#${params.toString()}`;
}

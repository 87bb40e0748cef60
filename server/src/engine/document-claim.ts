// Whether an editor should show a document as nginx: the directory walk's rule (nginx-files.ts: names first, then
// the content sniff) applied to the text the editor already holds, so the VS Code extension, the language server's
// workspace index and `nginx-keepalive check <dir>` agree on which files are nginx. The extension contributes only
// names that are nginx's alone (`nginx.conf`, `*.nginx`, ...); everything else (`conf.d/*.conf`, `sites-available/`
// files, `*.conf.template`, `*.j2`) opens in whatever language the editor gives it and is switched here only when its
// text is nginx, so fontconfig's XML and supervisor's INI keep theirs. Pure: no file is read.
import { claimByContent, claimByName, MAX_SNIFFED_FILE_BYTES, SNIFF_BYTES, sizeLimited, TOO_LARGE_TO_SNIFF } from './nginx-files.js';

export const NGINX_LANGUAGE_ID = 'nginx';

/**
 * The languages VS Code gives these files when nothing more specific claims them: `plaintext` (extensionless site
 * files, `*.template`, `*.j2`, `*.sigil`) and `properties` (its built-in language for `*.conf`). A document in any
 * other language was given it by an extension, by `files.associations` or by the user, and keeps it.
 */
export const FALLBACK_LANGUAGE_IDS: ReadonlySet<string> = new Set(['plaintext', 'properties']);

export interface OpenDocument {
  /** The base name (`default`, `site.conf.j2`): the walk's name rule looks at nothing else. */
  fileName: string;
  languageId: string;
  text: string;
}

export type DocumentClaim = { switchToNginx: true } | { switchToNginx: false; reason: string };

export function claimDocument(document: OpenDocument): DocumentClaim {
  if (document.languageId === NGINX_LANGUAGE_ID) return keep('already nginx');
  if (!FALLBACK_LANGUAGE_IDS.has(document.languageId)) return keep(`already ${document.languageId}`);
  const byName = claimByName(document.fileName);
  if (byName.kind === 'never') return keep(byName.reason);
  if (byName.kind === 'nginx') return { switchToNginx: true };
  const { text } = document;
  // UTF-8 is at least one byte per UTF-16 unit, so a text longer than the bound in units is longer in bytes too.
  const tooLarge = () => text.length > MAX_SNIFFED_FILE_BYTES || Buffer.byteLength(text, 'utf8') > MAX_SNIFFED_FILE_BYTES;
  if (sizeLimited(byName) && tooLarge()) return keep(TOO_LARGE_TO_SNIFF);
  const { bytes, truncated } = sniffedPrefix(text);
  const verdict = claimByContent(byName.test, bytes, truncated);
  return verdict.claimed ? { switchToNginx: true } : keep(verdict.reason);
}

/**
 * The first SNIFF_BYTES of the text as UTF-8, as the walk reads them from disk: at most SNIFF_BYTES units are
 * encoded (each is at least one byte), so a large document costs no more than a large file.
 */
function sniffedPrefix(text: string): { bytes: Buffer; truncated: boolean } {
  const encoded = Buffer.from(text.slice(0, SNIFF_BYTES), 'utf8');
  const truncated = encoded.length > SNIFF_BYTES || text.length > SNIFF_BYTES;
  return { bytes: encoded.subarray(0, SNIFF_BYTES), truncated };
}

function keep(reason: string): DocumentClaim {
  return { switchToNginx: false, reason };
}

// The editor pane's colours: the language server's semantic tokens (features/semantic-tokens.ts), so the page
// colours nginx, Go templates and Jinja tags as VS Code does with the extension. Returns HTML for the editor element.
import { LineIndex } from '../features/positions.js';
import { collectSemanticTokens } from '../features/semantic-tokens.js';
import type { NginxParser } from '../parser/loader.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
}

/** `text` as HTML, each token in a `<span class="tok-<type>">`; plain escaped text without a parser. */
export function highlightedHtml(text: string, parser: NginxParser | undefined): string {
  if (!parser) return escapeHtml(text);
  // The tokens' lines are the LSP's (a lone `\r` ends one too): offsets come from the same index.
  const lines = new LineIndex(text);
  const parts: string[] = [];
  let at = 0;
  for (const token of collectSemanticTokens(parser, text)) {
    const start = lines.lineStart(token.line) + token.character;
    if (start < at) continue;
    parts.push(escapeHtml(text.slice(at, start)));
    parts.push(`<span class="tok-${token.type}">${escapeHtml(text.slice(start, start + token.length))}</span>`);
    at = start + token.length;
  }
  parts.push(escapeHtml(text.slice(at)));
  return parts.join('');
}

// The editor pane's colours: the language server's semantic tokens (features/semantic-tokens.ts), so the page
// colours nginx, Go templates and Jinja tags as VS Code does with the extension. Returns HTML for the editor element.
import { collectSemanticTokens } from '../features/semantic-tokens.js';
import type { NginxParser } from '../parser/loader.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** `text` as HTML, each token in a `<span class="tok-<type>">`; plain escaped text without a parser. */
export function highlightedHtml(text: string, parser: NginxParser | undefined): string {
  if (!parser) return escapeHtml(text);
  const starts = lineStarts(text);
  const parts: string[] = [];
  let at = 0;
  for (const token of collectSemanticTokens(parser, text)) {
    const start = starts[token.line]! + token.character;
    if (start < at) continue;
    parts.push(escapeHtml(text.slice(at, start)));
    parts.push(`<span class="tok-${token.type}">${escapeHtml(text.slice(start, start + token.length))}</span>`);
    at = start + token.length;
  }
  parts.push(escapeHtml(text.slice(at)));
  return parts.join('');
}

// The playground's colours: the language server's semantic tokens placed on the text, which must come back whole.
import { describe, expect, it } from 'vitest';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { highlightedHtml } from '../../server/src/playground/highlight.js';

function unescaped(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

function tokensOf(html: string, type: string): string[] {
  return [...html.matchAll(new RegExp(`<span class="tok-${type}">([^<]*)</span>`, 'g'))].map((match) => unescaped(match[1]!));
}

describe('highlightedHtml', () => {
  for (const [name, eol] of [['\\n', '\n'], ['\\r\\n', '\r\n'], ['a lone \\r', '\r']] as const) {
    it(`wraps the directive names and nothing else, and keeps the text whole, with ${name} line breaks`, async () => {
      const text = ['events {}', 'http {', '    server_tokens off; # <b>&', '    add_header X "a<b>";', '}', ''].join(eol);
      const html = highlightedHtml(text, await loadNginxParser());
      expect(unescaped(html)).toBe(text);
      // Only LF ends a comment for nginx: after a lone CR, the add_header line is still the comment's text.
      const keywords = eol === '\r' ? ['events', 'http', 'server_tokens'] : ['events', 'http', 'server_tokens', 'add_header'];
      expect(tokensOf(html, 'keyword')).toEqual(keywords);
      expect(html).not.toContain('<b>');
    });
  }

  it('escapes the text when there is no parser yet', () => {
    expect(highlightedHtml('a <b> & "c"', undefined)).toBe('a &lt;b&gt; &amp; &quot;c&quot;');
  });
});

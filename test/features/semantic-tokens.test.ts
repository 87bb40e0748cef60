// Semantic tokens over real parses, decoded back from the LSP encoding and checked against the text: what each token
// covers, that they are sorted, single-line and never overlap, and that columns are UTF-16.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actionRanges } from '../../server/src/analysis/template-text.js';
import { LineIndex } from '../../server/src/features/positions.js';
import {
  collectSemanticTokens,
  encodeSemanticTokens,
  SEMANTIC_TOKEN_TYPES,
} from '../../server/src/features/semantic-tokens.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';

interface Decoded {
  line: number;
  col: number;
  len: number;
  type: string;
  text: string;
}

/** The LSP's relative encoding read back, independently of the encoder, with each token's text. */
function decode(data: number[], text: string): Decoded[] {
  const lines = text.split(/\r\n|\r|\n/);
  const tokens: Decoded[] = [];
  let line = 0;
  let col = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [deltaLine, deltaCol, len, type] = data.slice(i, i + 5) as [number, number, number, number];
    line += deltaLine;
    col = deltaLine === 0 ? col + deltaCol : deltaCol;
    tokens.push({ line, col, len, type: SEMANTIC_TOKEN_TYPES[type]!, text: lines[line]!.slice(col, col + len) });
  }
  return tokens;
}

async function tokensOf(text: string, range?: { startOffset: number; endOffset: number }): Promise<Decoded[]> {
  return decode(encodeSemanticTokens(collectSemanticTokens(await loadNginxParser(), text, range)), text);
}

function expectWellFormed(tokens: Decoded[], text: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    expect(token.len).toBeGreaterThan(0);
    expect(token.col + token.len).toBeLessThanOrEqual(lines[token.line]!.length);
    const previous = tokens[i - 1];
    if (previous && previous.line === token.line) expect(token.col).toBeGreaterThanOrEqual(previous.col + previous.len);
    if (previous) expect(token.line).toBeGreaterThanOrEqual(previous.line);
  }
}

const CONFIG = `# upstreams
http {
    upstream app { server 127.0.0.1:3000; keepalive 16; }
    server {
        location / {
            proxy_set_header Connection "";
            proxy_set_header X-Host "$host:\${server_port}";
            if ($http_x = 'a') { return 403; }
            proxy_pass http://app$request_uri; # trailing
        }
    }
}
`;

describe('semantic tokens', () => {
  it('marks directive names, variables, strings, numbers and comments, sorted and without overlaps', async () => {
    const tokens = await tokensOf(CONFIG);
    expectWellFormed(tokens, CONFIG);
    const of = (type: string) => tokens.filter((token) => token.type === type).map((token) => token.text);
    expect(of('comment')).toEqual(['# upstreams', '# trailing']);
    expect(of('keyword')).toEqual([
      'http', 'upstream', 'server', 'keepalive', 'server', 'location', 'proxy_set_header', 'proxy_set_header', 'if', 'return', 'proxy_pass',
    ]);
    expect(of('variable')).toEqual(['$host', '${server_port}', '$http_x', '$request_uri']);
    expect(of('number')).toEqual(['16', '403']);
    expect(of('string').join('')).toBe(`""":"'a'`);
  });

  it('colours every template action of the Dokku sigil and every variable token starts with $', async () => {
    const sigil = readFileSync('examples/dokku/nginx.conf.sigil', 'utf8');
    const tokens = await tokensOf(sigil);
    expectWellFormed(tokens, sigil);
    for (const token of tokens.filter((t) => t.type === 'variable')) expect(token.text.startsWith('$')).toBe(true);
    const index = new LineIndex(sigil);
    const covering = (offset: number, type: string) => {
      const { line, character } = index.positionAt(offset);
      return tokens.some((t) => t.type === type && t.line === line && t.col <= character && character < t.col + t.len);
    };
    const actions = actionRanges(sigil);
    expect(actions.length).toBeGreaterThan(100);
    for (const [start, end] of actions) {
      // Both delimiters of every action are painted (as a macro, or as part of a template comment).
      const kind = sigil.startsWith('{{/*', start) || sigil.startsWith('{{- /*', start) ? 'comment' : 'macro';
      expect(covering(start, kind), sigil.slice(start, end)).toBe(true);
      expect(covering(end - 1, kind), sigil.slice(start, end)).toBe(true);
    }
    const keywordLine = tokens.filter((t) => t.line === index.positionAt(sigil.indexOf('{{ range $port_map')).line);
    expect(keywordLine.map((t) => `${t.type}:${t.text}`)).toEqual([
      'macro:{{', 'macro:range', 'variable:$port_map', 'operator::=', 'property:.PROXY_PORT_MAP', 'operator:|', 'function:split', 'string:" "', 'macro:}}',
    ]);
  });

  it('paints what follows a lone CR in a comment as comment: nginx reads it so, though the editor starts a line there', async () => {
    const text = 'upstream app {\n    server a:1; # primary\rkeepalive 16;\n}\n';
    const tokens = await tokensOf(text);
    expectWellFormed(tokens, text);
    expect(tokens.filter((token) => token.type === 'comment').map((token) => [token.line, token.text])).toEqual([
      [1, '# primary'],
      [2, 'keepalive 16;'],
    ]);
  });

  it('splits a multi-line string per line and counts columns in UTF-16 code units', async () => {
    const text = 'return 200 "one\ntwo";\r\nset $a "😀é"; set $b 1;\n';
    const tokens = await tokensOf(text);
    expectWellFormed(tokens, text);
    const strings = tokens.filter((token) => token.type === 'string');
    expect(strings.map((token) => [token.line, token.text])).toEqual([
      [0, '"one'],
      [1, 'two"'],
      [2, '"😀é"'],
    ]);
    const b = tokens.find((token) => token.text === '$b')!;
    // 😀 is two UTF-16 code units: `set $a "😀é"; set ` is 18 of them.
    expect([b.line, b.col, b.len]).toEqual([2, 18, 2]);
  });

  it('answers a range with the tokens touching it only', async () => {
    const start = CONFIG.indexOf('        location');
    const end = CONFIG.indexOf('\n', start);
    const tokens = await tokensOf(CONFIG, { startOffset: start, endOffset: end });
    expect(tokens.map((token) => token.text)).toEqual(['location']);
    expect(tokens[0]!.line).toBe(4);
  });

  it('gives a config with syntax errors the tokens it can still read', async () => {
    const text = 'http { server { listen 80 } \nkeepalive 16;';
    const tokens = await tokensOf(text);
    expectWellFormed(tokens, text);
    expect(tokens.filter((token) => token.type === 'keyword').map((token) => token.text)).toContain('keepalive');
  });
});

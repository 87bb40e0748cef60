// The content sniff reads lines in place and stops once its answer is settled (issue 30: it was the largest part of a
// directory walk); it must answer exactly as the sniff it replaced, kept as the oracle in ./content-sniff-oracle.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sniffNginxContent } from '../../server/src/engine/nginx-content.js';
import { isJsSpace } from '../../server/src/engine/nginx-content-lines.js';
import { oracleSniffNginxContent } from './content-sniff-oracle.js';

/** Whole parts that steer every branch: nginx-only names, shared words, template syntax, quotes, comments, Lua. */
const PARTS = [
  'listen 80;', 'server {', '}', 'events;', 'events {', 'set $x 1;', 'set x;', 'include a.conf;', 'include "a";',
  'content_by_lua_block {', 'log_format main', "'$a'", "'$b';", 'proxy_pass http://a;', 'return 1;', 'if ($x = 1) {',
  'my $x = 1;', 'a = b;', 'hash |= 0;', 'key: value', 'key = v', 'call(x);', 'a[i];', 'text/html html;',
  '{{ .X }}', '{{', '}}', '{%', '%}', '{#', '#}', '{{ if .S }}', '{% endif %}', '# c', ' #', '"', "'", '\\', ';',
  '{', ' ', '\t', '\r', '\n', '\n', '\n', '\u0000', '\u00a0', '\u2028', '\ufeff', 'x', '=', ' = ', '_by_lua',
];

/** The same verdict and, when asked, the same evidence lines. */
function agree(text: string): void {
  expect(sniffNginxContent(text), JSON.stringify(text)).toEqual(oracleSniffNginxContent(text));
  const ours: string[] = [];
  const theirs: string[] = [];
  expect(sniffNginxContent(text, ours)).toEqual(oracleSniffNginxContent(text, theirs));
  expect(ours).toEqual(theirs);
}

describe('the content sniff answers as the one it replaced', () => {
  it('on generated texts', () => {
    const text = fc.array(fc.constantFrom(...PARTS), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, (sample) => agree(sample)), { seed: 20_261_202, numRuns: 20_000 });
  });

  it('on texts that are mostly nginx, where it stops early', () => {
    const lines = fc.array(fc.constantFrom('listen 80;', 'server {', '}', '', '# c', 'prose words here', 'a = b;'), { maxLength: 60 });
    fc.assert(fc.property(lines, fc.boolean(), (sample, newline) => agree(sample.join('\n') + (newline ? '\n' : ''))), {
      seed: 20_261_203,
      numRuns: 5_000,
    });
  });

  it('on the project corpus and the fixtures', () => {
    const files = readdirSync('test/corpus', { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.md'))
      .map((entry) => path.join(entry.parentPath, entry.name));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) agree(readFileSync(file, 'utf8'));
  });

  it('reads the white space trimStart() does', () => {
    for (let code = 0; code < 0x10000; code++) {
      expect(isJsSpace(code), code.toString(16)).toBe(String.fromCharCode(code).trimStart() === '');
    }
  });
});

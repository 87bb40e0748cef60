// nginx's first syntax error for a plain text is found while the text reader reads it (model/plain-nginx-check.ts)
// instead of by nginx's own tokenizer (model/nginx-first-error.ts): the two must give the same answer on every text
// the reader accepts. Checked on generated configurations made to hold nginx's block mistakes, on character soup, on
// mutated real files and on the corpus; each also counts the texts answered from the reader's statements alone, so a
// reader that doubted everything would not pass.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../server/src/model/line-index.js';
import { nginxFirstError } from '../../server/src/model/nginx-first-error.js';
import { readPlainFile } from '../../server/src/model/text-reader.js';
import type { ConfigFile } from '../../server/src/model/types.js';
import { checkProperty, mutate, mutation, seedFiles } from './support.js';

function emptyFile(text: string): ConfigFile {
  return { path: '/virtual/x.conf', text, directives: [], templateControls: [], syntaxProblems: [], isTemplate: false, eol: '\n' };
}

/** Compares the two answers for `text`; true when the reader read it and answered without nginx's tokenizer. */
function sameAnswer(text: string): boolean {
  const reading = readPlainFile(emptyFile(text), { text, lines: new LineIndex(text), hasErrors: false });
  if (!reading) return false;
  expect(reading.nginx.firstError(text), JSON.stringify(text)).toEqual(nginxFirstError(text));
  return reading.nginx.fromStatements;
}

// Block directives written with `;`, simple ones with a block, bodies their module reads (map, types) with blocks
// inside, an upstream's `server` with a block, quoted and glued names, and nginx's words where the reader's differ.
const NAMES = ['server', 'location', 'http', 'upstream', 'map', 'types', 'geo', 'events', 'if', 'index', 'return',
  'echo', 'listen', 'proxy_pass', 'keepalive', 'limit_except', 'split_clients', 'charset_map', 'match', 'unknown_x',
  '"server"', "'map'", '$v', 'a$b', 'proxy_pass$x', 'x_by_lua_block$', '$x_by_lua_block', 'if$x', 'server}'];
const ARGS = ['', ' 80', ' $a $b', ' "a"', ' "a"b', " 'a'$x", ' "a")', ' "a"#c\n', ' a#b', ' x}', ' \\"e', ' /a', ' "a"  b'];
const CONDITIONS = ['($x)', '($a ~ "b")', "($a = '')", '($a ~ #x\n)', '($a ~ #x)', '($a = } )', '(-f $f)', "('a;b' = $x)", '("{" = $a)', "('{' = $a)", '("a "b )'];
const SPACE = [' ', '\n', '\t', ' # c\n', '\r\n'];

const space = fc.constantFrom(...SPACE);
const head = fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...ARGS)).map(([n, a]) => n + a);
const { statement } = fc.letrec((tie) => ({
  statement: fc.oneof({ depthSize: 'small' }, head.map((h) => `${h};`), tie('block'), tie('condition'), tie('upstream')),
  // An upstream's `server` is its member, simple: with a block, nginx stops.
  upstream: fc
    .array(fc.tuple(fc.constantFrom('server', 'server 10.0.0.1', 'keepalive 2', 'location /'), fc.constantFrom(';', ' {}', '{ a; }')), { maxLength: 3 })
    .map((members) => `upstream u {\n${members.map(([m, end]) => m + end).join('\n')}\n}`),
  block: fc
    .tuple(head, space, fc.array(fc.tuple(space, tie('statement')), { maxLength: 4 }))
    .map(([h, s, body]) => `${h}${s}{${body.map(([w, b]) => w + String(b)).join('')}${s}}`),
  condition: fc
    .tuple(fc.constantFrom(...CONDITIONS), fc.array(tie('statement'), { maxLength: 2 }))
    .map(([c, body]) => `if ${c} {\n${body.join('\n')}\n}`),
}));
const config = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(space, statement), { maxLength: 6 }))
  .map(([bom, parts]) => (bom && parts.length > 0 ? '\uFEFF' : '') + parts.map(([s, p]) => s + String(p)).join(''));
const SOUP = ['a', 'server', 'map', 'index', ' ', '\n', '{', '}', ';', '"', "'", '$', '$a', '#', '(', ')', '\\', 'if ', '_by_lua_block'];
const soup = fc.array(fc.constantFrom(...SOUP), { minLength: 1, maxLength: 20 }).map((parts) => parts.join(''));

describe("nginx's first error, found while reading a plain text, is its tokenizer's", () => {
  it('on generated configurations', async () => {
    let answered = 0;
    await checkProperty(
      'plain nginx check = nginx first error (configurations)',
      fc.asyncProperty(config, async (text) => {
        if (sameAnswer(text)) answered++;
      }),
      2000,
    );
    expect(answered).toBeGreaterThan(300);
  });

  it('on character soup', async () => {
    let answered = 0;
    await checkProperty(
      'plain nginx check = nginx first error (soup)',
      fc.asyncProperty(soup, async (text) => {
        if (sameAnswer(text)) answered++;
      }),
      3000,
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('on mutated real files', async () => {
    const seeds = seedFiles();
    let answered = 0;
    await checkProperty(
      'plain nginx check = nginx first error (mutations)',
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), mutation, async (index, change) => {
        if (sameAnswer(mutate(seeds[index]!.text, change))) answered++;
      }),
      500,
    );
    expect(answered).toBeGreaterThan(50);
  });

  it('on every corpus file, nearly all answered without a second tokenizing', () => {
    const corpus = path.resolve(import.meta.dirname, '../corpus');
    let read = 0;
    let answered = 0;
    for (const dir of ['nginx', 'sigil', 'sigil_other', 'templated']) {
      for (const name of readdirSync(path.join(corpus, dir))) {
        const text = readFileSync(path.join(corpus, dir, name), 'utf8');
        const reading = readPlainFile(emptyFile(text), { text, lines: new LineIndex(text), hasErrors: false });
        if (!reading) continue;
        read++;
        expect(reading.nginx.firstError(text), name).toEqual(nginxFirstError(text));
        if (reading.nginx.fromStatements) answered++;
      }
    }
    console.log(`plain corpus files: ${read}, answered from the statements: ${answered}`);
    expect(answered).toBeGreaterThan(read * 0.9);
  });
});

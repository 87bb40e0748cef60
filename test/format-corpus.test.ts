// The formatter's guarantees over every corpus file and every fixture, with each indentation style:
// - a file with a syntax problem is refused with the reason, and no file that must parse cleanly is refused;
// - idempotent: format(format(x)) === format(x);
// - the token stream (every leaf the parser produces: directive names, argument parts, quotes, template actions,
//   comments without trailing blanks, Lua code but for the blanks starting its code lines) is the same before and
//   after, read here by a walker of its own;
// - files real nginx accepted (MANIFEST nginx_t = ok, without stubs) still pass real `nginx -t` once formatted, in
//   one nginx prefix with Debian's conf files, as test/corpus-fix.test.ts reproduces the manifest's environment.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { DEFAULT_FORMAT_OPTIONS, formatDocument, type FormatOptions } from '../server/src/features/format.js';
import { withoutLuaIndentation } from '../server/src/model/lua-lines.js';
import { loadNginxParser, type NginxParser } from '../server/src/parser/loader.js';
import { entries, mustParseClean } from './corpus/manifest.js';
import type { NginxContext } from './support/expectations.js';
import { copyDebianConfFiles, makePrefix, nginxTestCorpusCopy, requireNginx } from './support/nginx.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

function fixtureFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return fixtureFiles(full);
    return /\.(conf|sigil|j2|tmpl)$/.test(entry.name) ? [full] : [];
  });
}

const corpusFiles = entries.map((entry) => entry.absPath);
const cleanFiles = new Set(entries.filter(mustParseClean).map((entry) => entry.absPath));
const allFiles = [...corpusFiles, ...fixtureFiles(FIXTURES)];

const STYLES: Array<[string, FormatOptions]> = [
  ['4 spaces', DEFAULT_FORMAT_OPTIONS],
  ['tabs', { indentStyle: 'tab', indentSize: 8, tabWidth: 8 }],
  ['2 spaces', { indentStyle: 'space', indentSize: 2, tabWidth: 2 }],
];

let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

/** Leaves in text order, recursively (the corpus nests a handful of levels). */
function leaves(node: Node, into: string[] = []): string[] {
  if (node.childCount === 0) {
    // Lua code: without the blanks that start its code lines, which move with the directive (never a string's lines).
    const text = node.type === 'lua_code' ? withoutLuaIndentation(node.text.trimEnd()) : node.text;
    into.push(`${node.type}\u0000${node.type === 'comment' ? node.text.replace(/[ \t]+$/, '') : text}`);
    return into;
  }
  for (const child of node.children) if (child) leaves(child, into);
  return into;
}

function tokensOf(text: string): string[] {
  const tree = parser.parse(text);
  try {
    expect(tree.rootNode.hasError).toBe(false);
    return leaves(tree.rootNode);
  } finally {
    tree.delete();
  }
}

describe.each(STYLES)('format over the corpus and fixtures (%s)', (_name, options) => {
  it(`keeps tokens, is idempotent, and refuses only files with syntax errors (${allFiles.length} files)`, { timeout: 120_000 }, () => {
    let formatted = 0;
    let changed = 0;
    const refused: string[] = [];
    for (const file of allFiles) {
      const text = readFileSync(file, 'utf8');
      const result = formatDocument(parser, file, text, options);
      if (result.kind === 'refused') {
        expect(result.reason, file).toMatch(/^syntax error: /);
        expect(cleanFiles.has(file), `${file} must parse cleanly, yet: ${result.reason}`).toBe(false);
        refused.push(file);
        continue;
      }
      formatted++;
      if (result.text !== text) changed++;
      expect(tokensOf(result.text), file).toEqual(tokensOf(text));
      const again = formatDocument(parser, file, result.text, options);
      expect(again.kind === 'formatted' && again.text === result.text, `${file} is not idempotent`).toBe(true);
    }
    console.log(`${options.indentStyle}/${options.indentSize}: ${formatted} formatted (${changed} changed), ${refused.length} refused for syntax errors`);
    expect(formatted).toBeGreaterThan(550);
  });
});

const NGINX_CONTEXTS: readonly string[] = ['main', 'http', 'server', 'location'];
const accepted = entries.filter((e) => e.nginx_t === 'ok' && e.nginx_t_stubs === '' && NGINX_CONTEXTS.includes(e.nginx_t_context));

describe('formatted corpus files nginx accepted still pass nginx -t', () => {
  it(`checks the ${accepted.length} files accepted without stubs`, { timeout: 120_000 }, () => {
    requireNginx();
    const prefix = makePrefix();
    let tested = 0;
    let unchanged = 0;
    const failures: string[] = [];
    try {
      copyDebianConfFiles(prefix.dir);
      for (const entry of accepted) {
        const context = entry.nginx_t_context as NginxContext;
        const text = readFileSync(entry.absPath, 'utf8');
        const result = formatDocument(parser, entry.absPath, text, DEFAULT_FORMAT_OPTIONS);
        if (result.kind !== 'formatted') throw new Error(`${entry.file} refused: ${result.reason}`);
        if (result.text === text) {
          unchanged++;
          continue;
        }
        const copy = path.join(prefix.dir, context === 'main' ? 'nginx.conf' : 'snippet.conf');
        writeFileSync(copy, text);
        // Files that need what this machine lacks (a module, a directory) fail here before formatting: not counted.
        if (!nginxTestCorpusCopy(copy, context, prefix, ['http_lua']).ok) continue;
        writeFileSync(copy, result.text);
        const after = nginxTestCorpusCopy(copy, context, prefix, ['http_lua']);
        tested++;
        if (!after.ok) failures.push(`${entry.file}:\n${after.output}`);
      }
    } finally {
      prefix.remove();
    }
    console.log(`nginx -t after formatting: ${tested} changed files tested, ${unchanged} already formatted, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(tested + unchanged).toBeGreaterThan(100);
  });
});

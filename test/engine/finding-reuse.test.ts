// The language server's reuse of the previous analysis's findings (engine/finding-reuse.ts) and its re-run within one
// block (engine/block-rerun.ts) both keep findings whose messages quote lines ("nginx.conf:7"). A line break typed in
// one place and one removed in another, analyzed together, keep the count of lines and move every line between them:
// the kept findings must then be a fresh analysis's, not the old ones with the old lines (FUZZ_RUNS=3000 counterexample
// of test/property/incremental-analysis.test.ts, seed 887001321, on examples/plain/nginx.conf). And a finding can lie on
// an argument no rule reads: typing at its start or end extends the finding's span (FUZZ_RUNS=20000, same seed).
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { findingIdentity, MovedFinding } from '../../server/src/engine/finding-reuse.js';
import { findingOf } from '../../server/src/engine/run-rules.js';
import type { Rule, RuleContext, RuleState } from '../../server/src/analysis/rule-api.js';
import { OpenDocument } from '../../server/src/lsp/open-document.js';
import type { ModelCache } from '../../server/src/model/types.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';
import { memoryHost } from '../property/support.js';

const FILE = path.join('/finding-reuse', 'nginx.conf');
const TEXT = [
  'events {}',
  'http {',
  '    upstream app { server 127.0.0.1:3000; keepalive 16; }',
  '    server {',
  '        listen 80;',
  '        server_name example.com;',
  '        proxy_http_version 1.1;',
  '        proxy_set_header Host $host;',
  '        proxy_set_header Connection "";',
  '        location / {',
  '            proxy_pass http://app;',
  '        }',
  '        location /api/ {',
  '            proxy_set_header X-Request-Id $request_id;',
  '            proxy_pass http://app;',
  '        }',
  '    }',
  '}',
  '',
].join('\n');

let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

/** Opens `opened`, analyzes it, applies `edits` (offsets in `opened`, last first) as one batch, and analyzes again. */
async function afterEdits(edits: ReadonlyArray<{ at: number; deleted: number; inserted: string }>, opened = TEXT) {
  const document = new OpenDocument(`file://${FILE}`, FILE, 1, opened, () => 10_000_000);
  try {
    const analyze = async (previous?: Awaited<ReturnType<typeof analyzeWorkspace>>) => {
      const model = document.currentModel(parser);
      const text = document.text;
      const docs = [{ path: FILE, text }];
      const models: ModelCache = { get: (asked, askedText) => (asked === FILE && askedText === text ? model : undefined) };
      const incremental = await analyzeWorkspace(docs, { host: memoryHost(docs), models }, undefined, previous);
      const fresh = await analyzeWorkspace(docs, { host: memoryHost(docs) });
      return { incremental, fresh };
    };
    const { incremental: first } = await analyze();
    let version = 1;
    for (const { at, deleted, inserted } of [...edits].sort((a, b) => b.at - a.at)) {
      const range = { start: document.textDocument.positionAt(at), end: document.textDocument.positionAt(at + deleted) };
      document.applyChanges([{ range, text: inserted }], ++version);
    }
    const after = await analyze(first);
    // The edited server{} was re-read alone: the path under test was taken.
    expect(document.modelBuilds.incremental).toBe(1);
    return after;
  } finally {
    document.dispose();
  }
}

const breakAfter = (marker: string) => TEXT.indexOf(marker) + marker.length;
/** A line break typed after `server {` and the one after `location / {` removed: as many lines, those between moved. */
const MOVED_BREAK = [
  { at: breakAfter('    server {'), deleted: 0, inserted: '\n' },
  { at: breakAfter('        location / {'), deleted: 1, inserted: '' },
];

describe('findings kept across an edit that moves lines', () => {
  it('quotes the moved lines of a fresh analysis when only inert arguments and line breaks changed', async () => {
    const { incremental, fresh } = await afterEdits(MOVED_BREAK);
    // The inheritance finding at location /api/ quotes where the server's headers are, now a line further down.
    const inheritance = fresh.findings.find((finding) => finding.ruleId === 'proxy-set-header-inheritance');
    expect(inheritance?.detail).toContain('nginx.conf:9');
    expect(incremental.findings).toEqual(fresh.findings);
  });

  it('quotes the moved lines of a fresh analysis when an edit confined to the block also moved them', async () => {
    const edits = [...MOVED_BREAK, { at: breakAfter('listen 8'), deleted: 1, inserted: '1' }];
    const { incremental, fresh } = await afterEdits(edits);
    expect(fresh.findings.find((finding) => finding.ruleId === 'proxy-set-header-inheritance')?.detail).toContain('nginx.conf:9');
    expect(incremental.findings).toEqual(fresh.findings);
  });

  it('still reuses the findings when no line break was typed or removed', async () => {
    const { incremental, fresh } = await afterEdits([{ at: breakAfter('server_name example'), deleted: 0, inserted: 's' }]);
    expect(incremental.reused).toBe(true);
    expect(incremental.findings).toEqual(fresh.findings);
  });
});

/** A server_name in an upstream{} over two lines: the directive rule shows it on the argument, on the `;`'s line. */
const MISPLACED = ['events {}', 'http {', '    upstream app {server_name', '        a.example;', '        server 127.0.0.1:5000;', '    }', '}', ''].join('\n');

describe('findings on an argument no rule reads', () => {
  for (const [where, at] of [['start', MISPLACED.indexOf('a.example')], ['end', MISPLACED.indexOf('a.example') + 'a.example'.length]] as const) {
    it(`cover the letter typed at the argument's ${where}, as a fresh analysis's do`, async () => {
      const { incremental, fresh } = await afterEdits([{ at, deleted: 0, inserted: 'x' }], MISPLACED);
      const misplaced = fresh.findings.find((finding) => finding.ruleId === 'directive');
      expect(misplaced && misplaced.span.endOffset - misplaced.span.startOffset).toBe('xa.example'.length);
      expect(incremental.findings).toEqual(fresh.findings);
    });
  }
});

/**
 * A long comment in an upstream{}, then servers whose findings lie less than its length after the upstream: one of
 * them passes to another upstream, so its findings are kept (not decided again) when the first upstream is edited.
 */
const LONG_COMMENT = [
  'events {}',
  'http {',
  '    upstream other { server 127.0.0.1:4000; keepalive 8; }',
  `    upstream app { server 127.0.0.1:3000; keepalive 16; # ${'c'.repeat(400)}`,
  '    }',
  '    server { location / { proxy_pass http://other; } }',
  '    server { location /b/ { proxy_set_header Connection ""; proxy_pass http://app; } }',
  '}',
  '',
].join('\n');

describe('findings after an edit that deletes more than lies between the block and them', () => {
  const comment = LONG_COMMENT.indexOf('# c');

  // The comment alone (findings reused, moved), and with the keepalive changed too (the rules re-run in the block).
  const keepalive = LONG_COMMENT.indexOf('16;');
  for (const [what, edits] of [
    ['the comment', [{ at: comment, deleted: 402, inserted: '' }]],
    ['the comment and a keepalive digit', [{ at: comment, deleted: 402, inserted: '' }, { at: keepalive, deleted: 1, inserted: '' }]],
  ] as const) {
    it(`are a fresh analysis's findings: ${what} deleted`, async () => {
      const { incremental, fresh } = await afterEdits(edits, LONG_COMMENT);
      expect(fresh.findings.length).toBeGreaterThanOrEqual(2);
      expect(incremental.reused).toBe(edits.length === 1);
      expect(incremental.findings).toEqual(fresh.findings);
    });
  }

  it('lie on spans the model carried in place rather than copied', () => {
    const document = new OpenDocument(`file://${FILE}`, FILE, 1, LONG_COMMENT, () => 10_000_000);
    try {
      const server = () => document.currentModel(parser).directives[1]!.children[2]!;
      const before = server().span;
      expect(before.startOffset).toBe(LONG_COMMENT.indexOf('    server {') + 4);
      const range = { start: document.textDocument.positionAt(comment), end: document.textDocument.positionAt(comment + 402) };
      document.applyChanges([{ range, text: '' }], 2);
      const after = server().span;
      expect(document.modelBuilds.incremental).toBe(1);
      expect(after).toBe(before);
      expect(after.startOffset).toBe(LONG_COMMENT.indexOf('    server {') + 4 - 402);
      expect(after.start).toEqual({ line: 5, column: 4 });
    } finally {
      document.dispose();
    }
  });
});

describe('a moved finding', () => {
  it('has the identity of the finding it was moved from, through moves, which is not that finding', () => {
    const span = { start: { line: 0, column: 0 }, end: { line: 0, column: 1 }, startOffset: 0, endOffset: 1 };
    const found = { ruleId: 'directive', severity: 'error' as const, message: 'm', file: FILE, span };
    const once = new MovedFinding(found, { ...span, startOffset: 2, endOffset: 3 }, () => undefined);
    const twice = new MovedFinding(once, { ...span, startOffset: 4, endOffset: 5 }, () => undefined);
    expect(findingIdentity(twice)).toBe(findingIdentity(found));
    expect(findingIdentity(once)).toBe(findingIdentity(found));
    // The found finding's fix holds its analysis's model: a moved one keeps only a token, not the finding.
    expect(findingIdentity(found)).not.toBe(found);
    expect(findingIdentity({ ...found })).not.toBe(findingIdentity(found));
  });

  it('has the fields of the finding it moves, in their order, through any number of moves', () => {
    const span = (at: number) => ({ start: { line: 0, column: at }, end: { line: 0, column: at + 1 }, startOffset: at, endOffset: at + 1 });
    // Findings as the engine makes them (findingOf), so the copy's order is held to the real one, optional fields too.
    const rule = { meta: { id: 'proxy-http-version' }, message: () => ({ headline: 'm', detail: 'd' }), fix: () => undefined } as unknown as Rule;
    const context = {} as RuleContext;
    const withheld = findingOf(rule, { file: FILE, span: span(0), withheld: 'w' } as RuleState, 'warning', context);
    const unsafe = findingOf(rule, { file: FILE, span: span(0), unsafeFix: true } as RuleState, 'warning', context);
    expect(Object.keys(withheld)).toContain('withheld');
    expect(Object.keys(unsafe)).toEqual(expect.arrayContaining(['detail', 'unsafeFix', 'fixable']));
    for (const original of [withheld, unsafe]) {
      const once = new MovedFinding(original, span(1), () => undefined);
      const twice = new MovedFinding(once, span(2), () => undefined);
      for (const moved of [once, twice]) {
        expect(Object.keys(moved)).toEqual(Object.keys(original));
        expect({ ...moved, span: original.span }).toEqual({ ...original });
        expect(findingIdentity(moved)).toBe(findingIdentity(original));
      }
      expect(twice.span.startOffset).toBe(2);
    }
  });
});

// The language server's incremental analysis: after any sequence of edits, a document's model (re-reading only the
// edited block, server/src/model/incremental-model.ts) and the findings analyze() computes from it equal those of a
// fresh read of the same text: rule, message, file, offsets, lines and columns. Edits go mostly inside blocks (where
// the incremental path applies), through the server's own OpenDocument, with several edits sometimes piling up
// before the next analysis, as when a client sends changes faster than they are analyzed.
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeWorkspace, type WorkspaceAnalysis } from '../../server/src/engine/analyze.js';
import { INERT_ARGUMENT_DIRECTIVES, modelEditOf } from '../../server/src/model/incremental-model.js';
import { OpenDocument } from '../../server/src/lsp/open-document.js';
import { mentions } from '../../server/src/model/text-mentions.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import type { ConfigFile, Directive, ModelCache } from '../../server/src/model/types.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';
import { checkProperty, memoryHost, seedFiles, VIRTUAL_DIR, plainModel, type SeedFile } from './support.js';

const seeds = seedFiles();
let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

const FRAGMENTS = ['x', ' ', ';', '{', '}', '"', "'", '#', '$', '\n', '\r\n', 'é', '😀', 'keepalive 16;', 'proxy_http_version 1.1;',
  'proxy_set_header Connection "";', 'proxy_set_header Upgrade $http_upgrade;', 'proxy_pass http://app;', 'fastcgi_keep_conn on;',
  'upstream app { server 127.0.0.1:3000; }', 'location / {', 'location /a/ { proxy_pass http://app; }', 'server_name a.example;',
  'include x.conf;', '# nginx-keepalive-disable-next-line', '# nginx-keepalive-ignore', 'inc', 'lude', 'ip_hash;', 'map $http_upgrade $connection_upgrade { default upgrade; }'];

interface Edit {
  /**
   * Where: in a random block's body, anywhere in the text, typing in an argument no rule reads (a server_name's,
   * where the findings of the previous analysis are reused), or typing in any argument inside a block (where the
   * `directive` rule re-runs within that block), at `where` (a fraction of that stretch).
   */
  place: 'block' | 'anywhere' | 'inert' | 'argument';
  where: number;
  block: number;
  deleted: number;
  inserted: string;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  place: fc.constantFrom('block', 'block', 'block', 'anywhere', 'inert', 'inert'),
  where: fc.double({ min: 0, max: 1, noNaN: true }),
  block: fc.nat(),
  deleted: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 12 })),
  inserted: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.constant(''), fc.constantFrom('x', '-', '.', '1', 'é')),
});

function inertArguments(directives: readonly Directive[], out: Array<[number, number]> = []): Array<[number, number]> {
  for (const directive of directives) {
    if (INERT_ARGUMENT_DIRECTIVES.has(directive.name)) for (const arg of directive.args) out.push([arg.span.startOffset, arg.span.endOffset]);
    inertArguments(directive.children, out);
  }
  return out;
}

/** The arguments of directives inside blocks (a listen's port, a proxy_set_header's value...). */
function blockArguments(directives: readonly Directive[], out: Array<[number, number]> = [], nested = false): Array<[number, number]> {
  for (const directive of directives) {
    if (nested) for (const arg of directive.args) out.push([arg.span.startOffset, arg.span.endOffset]);
    blockArguments(directive.children, out, true);
  }
  return out;
}

function blockBodies(directives: readonly Directive[], out: Array<[number, number]> = []): Array<[number, number]> {
  for (const directive of directives) {
    if (directive.blockSpan) out.push([directive.blockSpan.startOffset + 1, directive.blockSpan.endOffset - 1]);
    blockBodies(directive.children, out);
  }
  return out;
}

/** The offsets an edit replaces in `text`, given the model of that text. */
function placeEdit(text: string, model: ConfigFile, { place, where, block, deleted }: Edit): [number, number] {
  const stretches =
    place === 'inert'
      ? inertArguments(model.directives)
      : place === 'argument'
        ? blockArguments(model.directives)
        : place === 'block'
          ? blockBodies(model.directives)
          : [];
  const [low, high] = stretches.length > 0 ? stretches[block % stretches.length]! : [0, text.length];
  const start = low + Math.floor(where * (high - low));
  const typing = place === 'inert' || place === 'argument';
  return [start, Math.min(high, start + (typing ? Math.min(deleted, 1) : deleted))];
}

interface Counts {
  incrementalBuilds: number;
  reusedAnalyses: number;
  /** Analyses where the directive rule ran only within the edited block (engine/block-rerun.ts). */
  blockAnalyses: number;
  /** Of those, the analyses where no rule ran on everything (the block's readable shape was unchanged). */
  keptAnalyses: number;
  /** Analyses where rules re-ran only on the blocks linked to the edited one by upstream names (linked-blocks.ts). */
  linkedAnalyses?: number;
  builds: number;
}

/** Applies `edits` to `seed` through an OpenDocument; after each analyzed step, incremental must equal fresh. */
async function checkEdits(seed: SeedFile, edits: ReadonlyArray<readonly [Edit, boolean]>, counts: Counts): Promise<void> {
  const file = path.join(VIRTUAL_DIR, path.basename(seed.name));
  const document = new OpenDocument(`file://${file}`, file, 1, seed.text, () => 10_000_000);
  try {
    let model = document.currentModel(parser);
    let version = 1;
    // The document as opened is analyzed first, as the language server does: the first edit has an analysis to reuse.
    const opened = { path: file, text: seed.text };
    const openedModel = model;
    const openedModels: ModelCache = { get: (asked, askedText) => (asked === file && askedText === seed.text ? openedModel : undefined) };
    let previous: WorkspaceAnalysis | undefined = await analyzeWorkspace([opened], { host: memoryHost([opened]), models: openedModels });
    for (const [change, analyzeNow] of edits) {
      const [start, end] = placeEdit(document.text, model, change);
      const at = document.textDocument.positionAt(start);
      const to = document.textDocument.positionAt(end);
      document.applyChanges([{ range: { start: at, end: to }, text: change.inserted }], ++version);
      // Sometimes several edits pile up before the next analysis.
      if (!analyzeNow) continue;
      model = document.currentModel(parser);
      const text = document.text;
      expect(plainModel(model)).toEqual(plainModel(parseFile(parser, file, text)));
      // What the model says of its text, derived from the previous model's answer (text-mentions.ts).
      expect(mentions(model, 'include')).toBe(text.includes('include'));
      expect(mentions(model, 'nginx-keepalive-ignore')).toBe(text.includes('nginx-keepalive-ignore'));
      const doc = { path: file, text };
      const host = memoryHost([doc]);
      const models: ModelCache = { get: (asked, askedText) => (asked === file && askedText === text ? model : undefined) };
      const fresh = await analyzeWorkspace([doc], { host });
      const incremental = await analyzeWorkspace([doc], { host, models }, undefined, previous);
      expect(incremental.findings).toEqual(fresh.findings);
      // A reused finding's fix is built afresh: the same edits as the fresh analysis's.
      const fixable = incremental.findings.findIndex((finding) => finding.fixable);
      if (fixable !== -1) expect(incremental.findings[fixable]!.fix).toEqual(fresh.findings[fixable]!.fix);
      if (incremental.reused) counts.reusedAnalyses++;
      if (incremental.ranWhole) counts.blockAnalyses++;
      if (incremental.ranWhole?.length === 0) counts.keptAnalyses++;
      if (incremental.ranLinked?.length) counts.linkedAnalyses = (counts.linkedAnalyses ?? 0) + 1;
      previous = incremental;
    }
    counts.incrementalBuilds += document.modelBuilds.incremental;
    // Not the first read of the seed: only builds after an edit could have been incremental.
    counts.builds += document.modelBuilds.incremental + document.modelBuilds.full - 1;
  } finally {
    document.dispose();
  }
}

/**
 * Servers with names, roots, logs, ports, sizes and redirects to type in, findings around them (the shape of
 * bench/lsp-latency.mjs).
 */
const TYPING_SEEDS: SeedFile[] = [0, 1, 2].map((variant) => ({
  name: `typing-${variant}.conf`,
  text: [
    'events {}',
    'http {',
    '    access_log /var/log/nginx/access.log;',
    ...[0, 1, 2].flatMap((n) => [
      `    upstream app_${n} {`,
      '        server 127.0.0.1:3000;',
      ...(n === variant ? [] : ['        keepalive 16;']),
      '    }',
      '    server {',
      `        listen 80${n};`,
      `        server_name app-${n}.example.com www.app-${n}.example.com;`,
      `        root /srv/app-${n};`,
      '        location / {',
      `            proxy_pass http://app_${n};`,
      ...(n === variant ? [] : ['            proxy_http_version 1.1;', '            proxy_set_header Connection "";']),
      `            error_log /var/log/nginx/app-${n}.log;`,
      '            client_max_body_size 10m;',
      '        }',
      `        location /old-${n}/ {`,
      '            expires 1h;',
      `            return 301 https://app-${n}.example.com/new/;`,
      '        }',
      '    }',
    ]),
    '}',
    '',
  ].join(variant === 2 ? '\r\n' : '\n'),
}));

/**
 * Upstreams and the servers using them, linked every way a rule reads across blocks: an upstream used by two servers,
 * a server using two upstreams, two upstreams of one name, a name no upstream has, an upstream nobody uses, a literal
 * address (in one variant), an upgrade map and headers at the http level (in another), a WebSocket location, a
 * fastcgi pass. Edits type in their names, ports, counts and headers, or comment a keepalive out.
 */
const LINKED_SEEDS: SeedFile[] = [0, 1, 2].map((variant) => ({
  name: `linked-${variant}.conf`,
  text: [
    'events {}',
    'http {',
    ...(variant === 1
      ? ['    map $http_upgrade $connection_upgrade { default upgrade; \'\' close; }', '    proxy_set_header X-Real-IP $remote_addr;']
      : []),
    '    upstream shared { server 127.0.0.1:3000; keepalive 16; }',
    '    upstream second {',
    '        server 127.0.0.1:3001;',
    '        keepalive 8;',
    '    }',
    '    upstream twice { server 127.0.0.1:3002; }',
    '    upstream twice { server 127.0.0.1:3003; keepalive 4; }',
    '    upstream unused { server 127.0.0.1:3004; }',
    '    upstream php { server 127.0.0.1:9000; keepalive 2; }',
    '    server {',
    '        listen 8001;',
    '        location / {',
    '            proxy_pass http://shared;',
    '            proxy_http_version 1.1;',
    '            proxy_set_header Connection "";',
    '        }',
    '        location /b/ { proxy_pass http://second; proxy_set_header Host $host; }',
    '    }',
    '    server {',
    '        listen 8002;',
    '        proxy_set_header Host $host;',
    '        location / { proxy_pass http://shared; proxy_set_header Connection ""; }',
    '        location /ws/ {',
    '            proxy_pass http://twice;',
    '            proxy_http_version 1.1;',
    `            proxy_set_header Connection ${variant === 1 ? '$connection_upgrade' : '"upgrade"'};`,
    '            proxy_set_header Upgrade $http_upgrade;',
    '        }',
    '    }',
    '    server {',
    '        listen 8003;',
    '        location / { proxy_pass http://nowhere; }',
    '        location ~ \\.php$ { fastcgi_pass php; }',
    ...(variant === 2 ? ['        location /lit/ { proxy_pass http://127.0.0.1:3000; }'] : []),
    '    }',
    ...[0, 1, 2].flatMap((n) => [
      `    upstream app_${n} { server 127.0.0.1:${4000 + n}; keepalive 16; }`,
      `    server { listen ${9000 + n}; location / { proxy_pass http://app_${n}; proxy_http_version 1.1; } }`,
    ]),
    '}',
    '',
  ].join('\n'),
}));

const steps = (edits: fc.Arbitrary<Edit>) => fc.array(fc.tuple(edits, fc.boolean()), { minLength: 1, maxLength: 6 });

describe('incremental analysis in the language server', () => {
  it('gives the model and the findings of a fresh read after any sequence of edits', async () => {
    const counts: Counts = { incrementalBuilds: 0, reusedAnalyses: 0, blockAnalyses: 0, keptAnalyses: 0, builds: 0 };
    await checkProperty(
      'incremental analysis equals fresh analysis',
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), steps(edit), (seed, edits) => checkEdits(seeds[seed]!, edits, counts)),
      60,
    );
    // The property is only worth something if the incremental path is taken (templates and broken files never are).
    expect(counts.incrementalBuilds).toBeGreaterThan(counts.builds / 10);
  });

  it('reuses the findings while typing in arguments no rule reads, and they equal a fresh analysis', async () => {
    const plainSeeds = [...TYPING_SEEDS, ...seeds].filter((seed) => {
      const model = parseFile(parser, '/p.conf', seed.text);
      return !model.isTemplate && model.syntaxProblems.length === 0 && inertArguments(model.directives).length > 0;
    });
    expect(plainSeeds.length).toBeGreaterThan(0);
    const counts: Counts = { incrementalBuilds: 0, reusedAnalyses: 0, blockAnalyses: 0, keptAnalyses: 0, builds: 0 };
    // Mostly typing a character (or deleting one) in a server_name, a root...; now and then anything in a block.
    const typing = fc.tuple(edit, fc.constantFrom('x', '-', '.', '1', 'é', '')).map(
      ([change, typed], ): Edit => (change.block % 5 === 0 ? { ...change, place: 'block' } : { ...change, place: 'inert', inserted: typed }),
    );
    await checkProperty(
      'incremental analysis reusing findings equals fresh analysis',
      fc.asyncProperty(fc.nat({ max: plainSeeds.length - 1 }), steps(typing), (seed, edits) => checkEdits(plainSeeds[seed]!, edits, counts)),
      60,
    );
    expect(counts.incrementalBuilds).toBeGreaterThan(counts.builds / 2);
    expect(counts.reusedAnalyses).toBeGreaterThan(counts.builds / 5);
  });

  // The directive rule re-runs within the edited block; the others keep their findings when they read nothing it changed.
  it('re-runs rules within the edited block while typing in arguments, and equals a fresh analysis', async () => {
    const plainSeeds = [...TYPING_SEEDS, ...seeds].filter((seed) => {
      const model = parseFile(parser, '/p.conf', seed.text);
      return !model.isTemplate && model.syntaxProblems.length === 0 && blockArguments(model.directives).length > 0;
    });
    const counts: Counts = { incrementalBuilds: 0, reusedAnalyses: 0, blockAnalyses: 0, keptAnalyses: 0, builds: 0 };
    // Typing a character (or a word, or deleting one) in any argument inside a block; now and then anything in a block.
    const typed = fc.oneof(
      { arbitrary: fc.constantFrom('x', '-', '.', '1', 'é', ''), weight: 3 },
      { arbitrary: fc.constantFrom(' ', '$', ';', 'on', 'off', '1.0', 'close', '""'), weight: 1 },
    );
    const typing = fc.tuple(edit, typed).map(
      ([change, typed]): Edit => (change.block % 7 === 0 ? { ...change, place: 'block' } : { ...change, place: 'argument', inserted: typed }),
    );
    await checkProperty(
      'incremental analysis re-running within a block equals fresh analysis',
      // The typing seeds (first in the list) twice as often: their ports, sizes and redirects are what no keepalive rule reads.
      fc.asyncProperty(fc.oneof(fc.nat({ max: TYPING_SEEDS.length - 1 }), fc.nat({ max: plainSeeds.length - 1 })), steps(typing), (seed, edits) =>
        checkEdits(plainSeeds[seed]!, edits, counts),
      ),
      60,
    );
    expect(counts.blockAnalyses).toBeGreaterThan(counts.builds / 5);
    expect(counts.keptAnalyses).toBeGreaterThan(counts.blockAnalyses / 10);
  });

  // The keepalive rules re-run on the blocks an upstream name links to the edited one; the rest keep their findings.
  it('re-runs the keepalive rules on the linked blocks after edits to what they read, and equals a fresh analysis', async () => {
    const linkedSeeds = [...LINKED_SEEDS, ...TYPING_SEEDS];
    const counts: Counts = { incrementalBuilds: 0, reusedAnalyses: 0, blockAnalyses: 0, keptAnalyses: 0, builds: 0, linkedAnalyses: 0 };
    // Typing in any argument inside a block (a name, a port, a count, a header), a `#` before a statement, or anything.
    const typed = fc.oneof(
      { arbitrary: fc.constantFrom('x', '_', '1', '0', ''), weight: 3 },
      { arbitrary: fc.constantFrom('#', ' ', '$', ';', 'shared', 'second', 'twice', 'nowhere', '"upgrade"', '""', ':80', 'close'), weight: 1 },
    );
    const typing = fc.tuple(edit, typed).map(
      ([change, typed]): Edit => (change.block % 7 === 0 ? { ...change, place: 'block' } : { ...change, place: 'argument', inserted: typed }),
    );
    await checkProperty(
      'incremental analysis re-running on linked blocks equals fresh analysis',
      fc.asyncProperty(fc.nat({ max: linkedSeeds.length - 1 }), steps(typing), (seed, edits) => checkEdits(linkedSeeds[seed]!, edits, counts)),
      60,
    );
    expect(counts.linkedAnalyses).toBeGreaterThan(counts.builds / 10);
  });
});

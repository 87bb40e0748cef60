// Many include globs over one directory of many files (issue 26, item 6: N globs over N files cost N × N name tests and
// N directory listings). Each glob here matches one file, so the config must give the findings of the same config
// with literal includes, in a dump's host (model/virtual-host.ts) and on the real disk; at the large sizes fuzzing
// reaches, a return to quadratic cost shows as a run that hits the test timeout.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import type { Finding } from '../../server/src/util/types.js';
import { createVirtualHost } from '../../server/src/model/virtual-host.js';
import { shapeSize } from './shapes.js';
import { checkProperty } from './support.js';

const layout = fc.record({
  count: shapeSize.map((size) => Math.min(size, 3_000)),
  // How each file's glob is spelled: a class, a `?`, or a star after the literal part.
  spelling: fc.constantFrom((i: number) => `site${i}.con[f]`, (i: number) => `site${i}.co?f`, (i: number) => `site${i}.c*`),
  upstreamEvery: fc.integer({ min: 1, max: 50 }),
});

function workspace(root: string, count: number, include: (i: number) => string, upstreamEvery: number) {
  const sites = Array.from({ length: count }, (_, i) => ({
    path: path.join(root, 'conf.d', `site${i}.conf`),
    text: i % upstreamEvery === 0 ? `upstream u${i} { server 127.0.0.1:${1 + i}; }\n` : `location /l${i} { return 200; }\n`,
  }));
  const lines = Array.from({ length: count }, (_, i) => `  include ${path.join(root, 'conf.d', include(i))};\n`).join('');
  const main = { path: path.join(root, 'nginx.conf'), text: `events {}\nhttp {\n${lines}  server { listen 80; }\n}\n` };
  return { main, sites };
}

const summary = (findings: readonly Finding[]) => findings.map((f) => `${f.file}:${f.span.startOffset} ${f.ruleId}`).sort();

describe('many include globs over one directory', () => {
  it('give the findings of literal includes, in a dump and on disk', async () => {
    await checkProperty(
      'many globs',
      fc.asyncProperty(layout, async ({ count, spelling, upstreamEvery }) => {
        const root = mkdtempSync(path.join(os.tmpdir(), 'nk-globs-'));
        try {
          const globbed = workspace(root, count, spelling, upstreamEvery);
          const literal = workspace(root, count, (i) => `site${i}.conf`, upstreamEvery);
          const files = [globbed.main, ...globbed.sites];
          const inDump = await analyze([globbed.main], { host: createVirtualHost(files), contexts: { [globbed.main.path]: 'main' } });
          const literalInDump = await analyze([literal.main], { host: createVirtualHost([literal.main, ...literal.sites]), contexts: { [literal.main.path]: 'main' } });
          expect(inDump.some((finding) => finding.file !== globbed.main.path)).toBe(true);
          expect(summary(inDump)).toEqual(summary(literalInDump));
          mkdirSync(path.join(root, 'conf.d'));
          for (const file of files) writeFileSync(file.path, file.text);
          const onDisk = await analyze([globbed.main], { readRoots: [root] });
          expect(summary(onDisk)).toEqual(summary(inDump));
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      10,
    );
  });
});

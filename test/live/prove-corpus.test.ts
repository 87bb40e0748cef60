// Issue 27's coverage figure: of the corpus files real nginx accepts (`nginx -t` ok in MANIFEST.tsv, main or http
// context) that reach an upstream through a pass, how many `prove` can run and measure: its sandbox has a location it
// sends requests to, and real nginx accepts the sandboxed copy (`nginx -t`, nothing started). The rest are counted by
// their reason. The figure and the table are printed, and copied into docs/prove.md; the floor sits just below today's
// figure so that it cannot drop unnoticed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { passes } from '../../server/src/analysis/passes.js';
import { testConfig } from '../../server/src/cli/prove/nginx-process.js';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { buildSandbox } from '../../server/src/engine/sandbox-config.js';
import { CORPUS_DIR, entries } from '../corpus/manifest.js';
import { sandboxStubs } from '../support/sandbox-stubs.js';
import { NGINX } from './prove-helpers.js';

/** Today's figure is 48 of 107 files, 44.9% (see docs/prove.md): a change that measures fewer files fails here. */
const FLOOR_PERCENT = 44;

const root = mkdtempSync(path.join(tmpdir(), 'nk-prove-corpus-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const SANDBOX_STUBS = sandboxStubs(path.join(root, 'tls'), true);

/** One reason per kind: the details (a scheme, a regex construct, a directive) left out so that files group. */
function kind(reason: string): string {
  if (reason.startsWith('regex location:')) return 'regex location outside the generated subset';
  if (reason.startsWith('nginx rejects')) return reason.replace(/ in \S+:\d+$/, '').replace(/"[^"]*"/g, '"…"');
  return reason;
}

/** Why a file's sandbox measures nothing: the reason most of its passes are skipped for. */
function mostCommon(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? 'no pass inside a server{} prove reads';
}

async function verdict(file: string, index: number): Promise<{ withPass: boolean; reason: string | null; measured: number; planned: number }> {
  const { workspace } = await analyzeWorkspace([{ path: file, text: readFileSync(file, 'utf8') }], { readRoots: [path.dirname(file)] }, []);
  if (passes(workspace).length === 0) return { withPass: false, reason: null, measured: 0, planned: 0 };
  const context = workspace.roots[0]?.context;
  if (context !== 'main' && context !== 'http') return { withPass: true, reason: `prove reads it as ${context ?? 'no'}-context`, measured: 0, planned: 0 };
  const prefix = path.join(root, String(index));
  let port = 20000;
  const sandbox = buildSandbox(workspace, { ...SANDBOX_STUBS, prefix, nextPort: () => port++ });
  const locations = sandbox.instances.flatMap((instance) => instance.locations);
  const measured = locations.filter((plan) => plan.skipped === null).length;
  if (measured === 0) return { withPass: true, reason: kind(mostCommon(locations.map((plan) => plan.skipped!))), measured, planned: locations.length };
  for (const sub of ['logs', 'tmp', 'cache']) mkdirSync(path.join(prefix, sub), { recursive: true });
  for (const [copy, text] of sandbox.files) {
    mkdirSync(path.dirname(copy), { recursive: true });
    writeFileSync(copy, text);
  }
  for (const instance of sandbox.instances) {
    if (!instance.locations.some((plan) => plan.skipped === null)) continue;
    const rejected = testConfig(NGINX, prefix, instance.mainConf);
    if (rejected !== undefined) return { withPass: true, reason: kind(`nginx rejects the sandbox: ${rejected.split('\n')[0]!.replace(/^.*\[emerg\] /, '')}`), measured: 0, planned: locations.length };
  }
  rmSync(prefix, { recursive: true, force: true });
  return { withPass: true, reason: null, measured, planned: locations.length };
}

const valid = entries.filter((entry) => entry.kind === 'nginx' && entry.templating === 'none' && entry.nginx_t === 'ok' &&
  (entry.nginx_t_context === 'main' || entry.nginx_t_context === 'http'));

describe('prove on the corpus', () => {
  it('runs and measures most nginx -t-valid main/http files with a pass; the rest are counted by reason', async () => {
    expect(valid.length).toBeGreaterThan(150);
    let withPass = 0;
    let runnable = 0;
    let planned = 0;
    let measured = 0;
    const reasons = new Map<string, number>();
    for (const [index, entry] of valid.entries()) {
      const result = await verdict(path.join(CORPUS_DIR, entry.file), index);
      if (!result.withPass) continue;
      withPass++;
      planned += result.planned;
      measured += result.measured;
      if (result.reason === null) runnable++;
      else reasons.set(result.reason, (reasons.get(result.reason) ?? 0) + 1);
    }
    const percent = (100 * runnable) / withPass;
    const table = [...reasons].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([reason, count]) => `| ${count} | ${reason} |`);
    console.log([
      `prove runs and measures ${runnable} of ${withPass} files (${percent.toFixed(1)}%); ${measured} of ${planned} passes in their servers measured`,
      ...table,
    ].join('\n'));
    expect(withPass).toBeGreaterThan(100);
    expect(percent).toBeGreaterThanOrEqual(FLOOR_PERCENT);
  }, 300_000);
});

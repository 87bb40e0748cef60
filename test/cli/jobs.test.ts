// `check --jobs N`: analysing in worker threads must give exactly the findings of one single-threaded analyze().
// The engine is tested directly (with the worker bundle global-setup built) on cases where splitting the documents
// naively would change the findings, and the CLI end to end on the whole corpus.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeWithJobs, MIN_PARALLEL_CHARS, type ParallelPlan } from '../../server/src/cli/parallel/analyze-parallel.js';
import { analyze as analyzeLazily } from '../../server/src/engine/analyze.js';
import { materializeFixes } from '../../server/src/engine/lazy-fix.js';
import type { Finding, SourceDocument } from '../../server/src/util/types.js';
import { useTempTrees } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');
const workerBundle = pathToFileURL(path.join(repoRoot, 'dist/cli-worker.js'));
const tree = useTempTrees();

function documentsOf(root: string, files: Record<string, string>, names: string[]): SourceDocument[] {
  return names.map((name) => ({ path: path.join(root, name), text: files[name]! }));
}

/**
 * analyze() with every fix built, so comparisons see the fixes too (a generated upstream name differs when another
 * document takes it): the parallel runs below build them in their workers, as `check --format sarif` does.
 */
async function analyze(...args: Parameters<typeof analyzeLazily>): Promise<Finding[]> {
  const findings = await analyzeLazily(...args);
  materializeFixes(findings);
  return findings;
}

/** Runs the parallel engine with the size threshold off, so even tiny inputs are split over two threads. */
async function inParallel(documents: SourceDocument[], root: string): Promise<{ findings: Finding[]; plan: ParallelPlan }> {
  let plan: ParallelPlan | undefined;
  const findings = await analyzeWithJobs(documents, { readRoots: [root] }, 2, {
    script: workerBundle,
    minChars: 0,
    report: (reported) => (plan = reported),
    fixes: true,
  });
  if (!plan) throw new Error('the documents were not split: nothing ran in parallel');
  return { findings, plan };
}

/** What analysing each document on its own would give: the wrong answer the engine must avoid. */
async function eachAlone(documents: SourceDocument[], root: string): Promise<Finding[]> {
  const parts = await Promise.all(documents.map((document) => analyze([document], { readRoots: [root] })));
  return parts.flat();
}

const CASES: Array<{ name: string; files: Record<string, string>; documents: string[] }> = [
  {
    // Neither document names the shared snippet; only the analysis finds that both reach it.
    name: 'two documents reaching one file through files that are not checked',
    files: {
      'a.conf': 'server {\n  listen 80;\n  include inc/a.inc;\n}\n',
      'b.conf': 'server {\n  listen 81;\n  include inc/b.inc;\n}\n',
      'inc/a.inc': 'include inc/shared.inc;\n',
      'inc/b.inc': 'include inc/shared.inc;\n',
      'inc/shared.inc': 'location / {\n  proxy_pass http://127.0.0.1:9000;\n}\n',
    },
    documents: ['a.conf', 'b.conf'],
  },
  {
    // c.conf's pass sits in an unchecked snippet, so only the analysis sees that it uses d.conf's upstream.
    name: 'a pass in one document using an upstream another document defines',
    files: {
      'c.conf': 'server {\n  listen 82;\n  include inc/c.inc;\n}\n',
      'inc/c.inc': 'location / {\n  proxy_pass http://app_c;\n}\n',
      'd.conf': 'upstream app_c {\n  server 127.0.0.1:9000;\n}\n',
    },
    documents: ['c.conf', 'd.conf'],
  },
  {
    // The fix for e.conf names a new upstream; the name f.conf already uses must be avoided (…_2).
    name: 'a generated upstream name taken in another document',
    files: {
      'e.conf': 'server {\n  listen 83;\n  location / {\n    proxy_pass http://127.0.0.1:8080;\n  }\n}\n',
      'f.conf': 'upstream backend_127_0_0_1_8080 {\n  server 127.0.0.1:8080;\n  keepalive 16;\n}\n',
    },
    documents: ['e.conf', 'f.conf'],
  },
  {
    // A pass to a socket has no host, so the hand-kept list of lookups this engine once used skipped it; the fix's
    // generated name is still looked up, and the analysis records that lookup itself.
    name: 'a generated upstream name for a socket taken in another document',
    files: {
      'g.conf': 'server {\n  listen 85;\n  location / {\n    proxy_pass http://unix:/run/app.sock;\n  }\n}\n',
      'h.conf': 'upstream backend_unix_run_app_sock {\n  server unix:/run/app.sock;\n  keepalive 16;\n}\n',
    },
    documents: ['g.conf', 'h.conf'],
  },
];

describe('analyzeWithJobs', () => {
  for (const { name, files, documents: names } of CASES) {
    it(`equals one analyze() when ${name}`, async () => {
      const root = tree(files);
      const documents = documentsOf(root, files, names);
      const single = await analyze(documents, { readRoots: [root] });
      expect(await eachAlone(documents, root)).not.toEqual(single);

      const { findings, plan } = await inParallel(documents, root);
      expect(plan).toMatchObject({ threads: 2, batches: 2 });
      // The interaction was not guessed from the texts: the batches were analyzed apart, then merged.
      expect(plan.merges).toBe(1);
      expect(findings).toEqual(single);
    });
  }

  it('keeps documents that include each other in one batch from the start', async () => {
    const files: Record<string, string> = {
      'nginx.conf': 'events {}\nhttp {\n  include conf.d/*.conf;\n}\n',
      'conf.d/app.conf': 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n  location / {\n    proxy_pass http://app;\n  }\n}\n',
      'other.conf': 'server {\n  listen 84;\n  location / {\n    proxy_pass http://127.0.0.1:7000;\n  }\n}\n',
    };
    const root = tree(files);
    const documents = documentsOf(root, files, ['conf.d/app.conf', 'nginx.conf', 'other.conf']);
    const single = await analyze(documents, { readRoots: [root] });

    const { findings, plan } = await inParallel(documents, root);
    expect(plan).toMatchObject({ batches: 2, merges: 0 });
    expect(findings).toEqual(single);
  });
});

function check(args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'check', ...args], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('check --jobs', () => {
  it('prints the same report for --jobs 1 and --jobs 2 on the whole corpus', () => {
    const one = check(['--format', 'json', '--jobs', '1', 'test/corpus']);
    const two = check(['--format', 'json', '--jobs', '2', 'test/corpus']);
    const reports = JSON.parse(one.stdout) as Array<{ filePath: string }>;
    // Big enough that --jobs 2 really splits the work rather than falling back to one thread.
    const chars = reports.reduce((sum, report) => sum + readFileSync(report.filePath, 'utf8').length, 0);
    expect(chars).toBeGreaterThan(MIN_PARALLEL_CHARS);
    expect(two).toEqual(one);
  });

  it('prints the same SARIF, fixes included, for --jobs 1 and --jobs 2 on the whole corpus', () => {
    // Fixes are built on demand from the model, which stays in the worker: SARIF asks the workers to build them.
    const one = check(['--format', 'sarif', '--jobs', '1', 'test/corpus']);
    const two = check(['--format', 'sarif', '--jobs', '2', 'test/corpus']);
    const results = (JSON.parse(one.stdout) as { runs: Array<{ results: Array<{ fixes?: unknown[] }> }> }).runs[0]!.results;
    expect(results.filter((result) => result.fixes !== undefined).length).toBeGreaterThan(100);
    expect(two).toEqual(one);
  });

  it('prints the same rdjson, suggestions included, for --jobs 1 and --jobs 2 on the whole corpus', () => {
    // rdjson's suggestions are fixes too: the workers must build them as they do for SARIF.
    const one = check(['--format', 'rdjson', '--jobs', '1', 'test/corpus']);
    const two = check(['--format', 'rdjson', '--jobs', '2', 'test/corpus']);
    const diagnostics = (JSON.parse(one.stdout) as { diagnostics: Array<{ suggestions?: unknown[] }> }).diagnostics;
    expect(diagnostics.filter((diagnostic) => diagnostic.suggestions !== undefined).length).toBeGreaterThan(100);
    expect(two).toEqual(one);
  });

  it.each(['0', 'two', '65'])('rejects --jobs %s', (value) => {
    const result = check(['--jobs', value, 'test/corpus/nginx']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`invalid --jobs "${value}" (expected an integer from 1 to 64)`);
  });

  it('accepts -j', () => {
    const files = { 'site.conf': 'server {\n  listen 80;\n  return 204;\n}\n' };
    const root = tree(files);
    expect(check(['-j', '1', '--format', 'json', root]).status).toBe(0);
  });
});

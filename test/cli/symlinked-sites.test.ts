// Debian's layout: nginx.conf includes sites-enabled/*.conf, and sites-enabled/app.conf links to
// ../sites-available/app.conf. Checking the directory reaches that file twice: as a document (discovery keeps the
// target) and through the include (under the link's name). Files are identified by real path, so it is reported,
// patched and written once, under the name the user's command gave it (issue 10).
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeWithJobs, type ParallelPlan } from '../../server/src/cli/parallel/analyze-parallel.js';
import { analyze } from '../../server/src/engine/analyze.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();

const NGINX_CONF = 'events {}\nhttp {\n  include sites-enabled/*.conf;\n}\n';
const SITE = 'upstream app {\n  server 127.0.0.1:8080;\n}\nserver {\n  listen 80;\n  location / {\n    proxy_pass http://app;\n  }\n}\n';
const FIXED_SITE =
  'upstream app {\n  server 127.0.0.1:8080;\n  keepalive 16;\n}\nserver {\n  listen 80;\n  location / {\n' +
  '    proxy_http_version 1.1;\n    proxy_set_header Connection "";\n    proxy_pass http://app;\n  }\n}\n';

/** The Debian layout in a temp dir, with a real symbolic link. */
function debianLayout(): string {
  const root = tree({ 'nginx.conf': NGINX_CONF, 'sites-available/app.conf': SITE });
  mkdirSync(path.join(root, 'sites-enabled'));
  symlinkSync('../sites-available/app.conf', path.join(root, 'sites-enabled/app.conf'));
  return root;
}

describe('check on the Debian layout', () => {
  it('reports each finding once, under the checked path', () => {
    const root = debianLayout();
    const result = runCli(root, ['check', '--format', 'json', '.']);
    expect(result.status).toBe(1);
    const reports = JSON.parse(result.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number }> }>;
    const findings = reports.flatMap((report) =>
      report.messages.map((message) => `${path.relative(root, report.filePath)}:${message.line} ${message.ruleId}`),
    );
    expect(findings).toEqual(['sites-available/app.conf:1 upstream-keepalive']);
  });

  it('--fix-dry-run patches the file once', () => {
    const root = debianLayout();
    const result = runCli(root, ['check', '--fix-dry-run', '.']);
    expect(result.status).toBe(0);
    expect(result.stdout.match(/^\+\+\+ .*$/gm)).toEqual(['+++ b/sites-available/app.conf']);
    expect(result.stdout.match(/^\+ *keepalive 16;$/gm)).toHaveLength(1);
    expect(result.stderr).toContain('1 file would change');
  });

  it('--fix writes the target once, keeps the link, and exits 0', () => {
    const root = debianLayout();
    const result = runCli(root, ['check', '--fix', '.']);
    expect(result.stderr).not.toContain('changed on disk');
    expect(result.status).toBe(0);
    expect(readFileSync(path.join(root, 'sites-available/app.conf'), 'utf8')).toBe(FIXED_SITE);
    expect(lstatSync(path.join(root, 'sites-enabled/app.conf')).isSymbolicLink()).toBe(true);
    expect(readdirSync(path.join(root, 'sites-available'))).toEqual(['app.conf']);
  });

  it('reports the file once under the link when only nginx.conf is checked', () => {
    const root = debianLayout();
    const result = runCli(root, ['check', '--format', 'json', 'nginx.conf']);
    const reports = JSON.parse(result.stdout) as Array<{ filePath: string; messages: unknown[] }>;
    const withFindings = reports.filter((report) => report.messages.length > 0).map((report) => path.relative(root, report.filePath));
    expect(withFindings).toEqual(['sites-enabled/app.conf']);
  });
});

describe('the core on the Debian layout', () => {
  const documents = (root: string) =>
    ['nginx.conf', 'sites-available/app.conf', 'sites-enabled/app.conf'].map((name) => ({
      path: path.join(root, name),
      text: readFileSync(path.join(root, name), 'utf8'),
    }));

  it('analyze() and fixAll() take a file given under two paths once, under the first', async () => {
    const root = debianLayout();
    const findings = await analyze(documents(root), { readRoots: [root] });
    expect(findings.map((finding) => path.relative(root, finding.file))).toEqual(['sites-available/app.conf']);
    const result = await fixAll(documents(root), { readRoots: [root] });
    expect([...result.texts.keys()].map((file) => path.relative(root, file))).toEqual(['sites-available/app.conf']);
    expect(result.texts.get(path.join(root, 'sites-available/app.conf'))).toBe(FIXED_SITE);
    expect(result.remaining).toEqual([]);
  });

  it('--jobs: batches reaching the file under different names are analyzed together', async () => {
    const root = debianLayout();
    let plan: ParallelPlan | undefined;
    const workerBundle = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/cli-worker.js'));
    // Two documents, the link left out: one batch includes the file by the link's name, the other checks its target.
    const docs = documents(root).slice(0, 2);
    const findings = await analyzeWithJobs(docs, { readRoots: [root] }, 2, {
      script: workerBundle,
      minChars: 0,
      report: (reported) => (plan = reported),
    });
    expect(plan?.threads).toBe(2);
    expect(findings).toEqual(await analyze(docs, { readRoots: [root] }));
    expect(findings.map((finding) => path.relative(root, finding.file))).toEqual(['sites-available/app.conf']);
  });
});

// action.yml run as GitHub runs a composite action (test/support/composite-action.ts: each step in bash with the
// runner's environment), against real files. The install step is the action's own: it finds an nginx-keepalive of
// the asked version on PATH (here a two-line wrapper running this checkout's dist/cli.js) and uses it; for another
// version it calls npm, which here is a stand-in on PATH that records its arguments and fails (no registry is used).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAction, runAction, type ActionRun } from '../support/composite-action.js';
import { CLI, makeTree, removeTree, useTempTrees } from '../cli/helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const ACTION = path.join(repoRoot, 'action.yml');
/** An upstream without keepalive (a warning) used by a pass. */
const SITE = 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n  location / { proxy_pass http://app; }\n}\n';

const tree = useTempTrees();
let bin: string;

// Made once for the file (useTempTrees removes its trees after each test).
beforeAll(() => {
  bin = makeTree({});
  writeFileSync(path.join(bin, 'nginx-keepalive'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "npm $*" >&2\nexit 3\n');
  for (const command of ['nginx-keepalive', 'npm']) chmodSync(path.join(bin, command), 0o755);
});
afterAll(() => removeTree(bin));

function run(files: Record<string, string>, inputs: Record<string, string> = {}): { result: ActionRun; workspace: string } {
  const workspace = tree(files);
  return { result: runAction(ACTION, { workspace, inputs, pathPrefix: bin }), workspace };
}

const step = (result: ActionRun, name: string) => result.steps.find((candidate) => candidate.name === name)!;

describe('action.yml', () => {
  it('annotates the findings, writes the SARIF, hands it to upload-sarif and fails on a warning', () => {
    const { result, workspace } = run({ 'deploy/nginx/site.conf': SITE }, { paths: 'deploy/nginx', 'sarif-file': 'nginx-keepalive.sarif', 'upload-sarif': 'true' });
    expect(step(result, 'Install nginx-keepalive').stdout).toBe('nginx-keepalive 0.1.0 is already installed\n');
    const check = step(result, 'Check nginx configurations');
    expect(check.status).toBe(0);
    expect(check.stdout!.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^::warning file=deploy\/nginx\/site\.conf,line=1,col=10,endLine=1,endColumn=13,title=upstream-keepalive::upstream has no keepalive/),
    ]);
    expect(check.outputs).toMatchObject({ errors: '0', warnings: '1', infos: '0', status: '1', 'sarif-file': 'nginx-keepalive.sarif' });
    const sarif = JSON.parse(readFileSync(path.join(workspace, 'nginx-keepalive.sarif'), 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results.map((r: { ruleId: string; locations: any[] }) => [r.ruleId, r.locations[0].physicalLocation.artifactLocation.uri])).toEqual([
      ['upstream-keepalive', 'deploy/nginx/site.conf'],
    ]);
    expect(step(result, 'Upload SARIF').uses).toEqual({
      action: 'github/codeql-action/upload-sarif@v3',
      with: { sarif_file: 'nginx-keepalive.sarif', category: 'nginx-keepalive' },
    });
    expect(step(result, 'Verdict').status).toBe(1);
    expect(result.succeeded).toBe(false);
    expect(result.summary).toBe('**nginx-keepalive**: 0 errors, 1 warnings, 0 info (fail-on: warning)\n');
  });

  it('writes no SARIF and uploads nothing unless asked, and passes a clean tree', () => {
    const { result } = run({ 'nginx.conf': 'events {}\nhttp {}\n' });
    expect(step(result, 'Check nginx configurations').stdout).toBe('');
    expect(step(result, 'Upload SARIF').skipped).toBe(true);
    expect(result.succeeded).toBe(true);
    const sarifOnly = run({ 'nginx.conf': SITE }, { 'sarif-file': 'out.sarif' }).result;
    expect(step(sarifOnly, 'Upload SARIF').skipped).toBe(true);
  });

  it('maps fail-on to the exit: error lets warnings pass, info fails on info, never passes findings', () => {
    expect(run({ 'nginx.conf': SITE }, { 'fail-on': 'error' }).result.succeeded).toBe(true);
    expect(run({ 'nginx.conf': 'server { listen 80 }\n' }, { 'fail-on': 'error' }).result.succeeded).toBe(false);
    const asInfo = { args: '--rule upstream-keepalive=info' };
    const info = run({ 'nginx.conf': SITE }, { ...asInfo, 'fail-on': 'info' }).result;
    expect(step(info, 'Check nginx configurations').stdout).toMatch(/^::notice file=nginx\.conf,/);
    expect(info.succeeded).toBe(false);
    expect(run({ 'nginx.conf': SITE }, asInfo).result.succeeded).toBe(true);
    expect(run({ 'nginx.conf': 'server { listen 80 }\n' }, { 'fail-on': 'never' }).result.succeeded).toBe(true);
  });

  it('still fails when the check cannot run, whatever fail-on says, and rejects an unknown fail-on', () => {
    const missing = run({ 'nginx.conf': SITE }, { paths: 'nowhere', 'fail-on': 'never' }).result;
    expect(step(missing, 'Check nginx configurations').stderr).toContain('nowhere');
    expect(step(missing, 'Verdict').status).toBe(2);
    const unknown = run({ 'nginx.conf': SITE }, { 'fail-on': 'warnings' }).result;
    expect(step(unknown, 'Check nginx configurations').stdout).toContain('::error title=nginx-keepalive::fail-on is error, warning, info or never');
    expect(unknown.succeeded).toBe(false);
  });

  it('checks several paths and globs, which reach the CLI unexpanded', () => {
    const files = { 'a/x.conf': SITE, 'b/deep/y.conf': SITE, 'c/z.conf': SITE };
    const { result } = run(files, { paths: 'a b/**/*.conf' });
    const annotated = step(result, 'Check nginx configurations').stdout!.match(/file=[^,]+/g);
    expect(annotated).toEqual(['file=a/x.conf', 'file=b/deep/y.conf']);
  });

  it('passes nginx-version to the CLI', () => {
    const { result, workspace } = run({ 'nginx.conf': SITE }, { 'nginx-version': '1.29.7', 'sarif-file': 'out.sarif' });
    const sarif = JSON.parse(readFileSync(path.join(workspace, 'out.sarif'), 'utf8'));
    expect(sarif.runs[0].properties.nginxTarget.version).toBe('1.29.7');
    expect(result.summary).toContain('fail-on: warning');
  });

  it('installs the pinned version with npm when PATH has another, and stops there if that fails', () => {
    const { result } = run({ 'nginx.conf': SITE }, { version: '9.9.9' });
    const install = step(result, 'Install nginx-keepalive');
    expect(install.stderr).toBe('npm install --global --no-fund --no-audit nginx-keepalive@9.9.9\n');
    expect(install.status).toBe(3);
    expect(result.steps.slice(1).every((later) => later.skipped)).toBe(true);
  });

  it("defaults to the package's version and keeps inputs out of its scripts", () => {
    const action = loadAction(ACTION);
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(action.inputs.version!.default).toBe(manifest.version);
    for (const candidate of action.runs.steps) expect(candidate.run ?? '').not.toContain('${{');
  });
});

// The fix loop's bound and the safe/unsafe split, through `check` itself (runCheck in-process) with test rules in
// place of the registry: no registered rule fights another or is unsafe, so these cases need rules made for them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Rule } from '../../server/src/analysis/rule-api.js';
import { parseCommandLine } from '../../server/src/cli/args.js';
import { runCheck } from '../../server/src/cli/check.js';
import { MAX_FIX_PASSES } from '../../server/src/engine/fix-all.js';
import { flipFlop, port8080, unsafePort } from '../engine/support.js';
import { useTempTrees } from './helpers.js';

const registry = vi.hoisted(() => ({ rules: [] as Rule[] }));
vi.mock('../../server/src/rules/registry.js', () => ({
  rules: registry.rules,
  findRule: (id: string) => registry.rules.find((rule) => rule.meta.id === id),
}));

function useRules(...rules: Rule[]): void {
  registry.rules.splice(0, registry.rules.length, ...rules);
}

const tree = useTempTrees();

async function check(cwd: string, args: string[], stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const command = parseCommandLine(['check', '--jobs', '1', ...args], { cwd, env: {}, stdoutIsTTY: false });
  if (command.kind !== 'check') throw new Error(command.kind);
  const io = { cwd, stdout: (text: string) => out.push(text), stderrLine: (line: string) => err.push(line), stderr: (text: string) => err.push(text) };
  // `check -` reads file descriptor 0, the test runner's: the text is handed over as read instead (fixStdin is what
  // is tested here; test/cli/stdin.test.ts pipes real stdin).
  if (stdin !== undefined) vi.spyOn(await import('../../server/src/cli/stdin.js'), 'readStdinDocuments').mockResolvedValue({
    documents: [{ path: path.join(cwd, 'site.conf'), text: stdin }],
    errors: [],
    notes: [],
  });
  const code = await runCheck(command.options, io);
  return { code, stdout: out.join(''), stderr: err.join('\n') };
}

beforeEach(() => {
  vi.restoreAllMocks();
});

describe('--fix at its pass limit', () => {
  const site = 'server {\n  listen 80;\n}\n';

  it('--fix says it stopped and exits 1, even with nothing else to fail on', async () => {
    useRules(flipFlop);
    const root = tree({ 'site.conf': site });
    // --max-warnings: the finding left would not fail the run by itself.
    const result = await check(root, ['site.conf', '--fix', '--max-warnings', '5']);
    expect(result.stderr).toContain(`--fix stopped after ${MAX_FIX_PASSES} passes with fixes still applying`);
    expect(result.code).toBe(1);
  });

  it('--fix-dry-run says so too and exits 1', async () => {
    useRules(flipFlop);
    const root = tree({ 'site.conf': site });
    const result = await check(root, ['site.conf', '--fix-dry-run', '--max-warnings', '5']);
    expect(result.stderr).toContain(`--fix-dry-run stopped after ${MAX_FIX_PASSES} passes`);
    expect(result.code).toBe(1);
  });

  it('check - --fix says so too and exits 1, still printing the text', async () => {
    useRules(flipFlop);
    const root = tree({});
    const result = await check(root, ['-', '--stdin-filename', 'site.conf', '--fix', '--max-warnings', '5'], site);
    expect(result.stderr).toContain(`--fix stopped after ${MAX_FIX_PASSES} passes`);
    expect(result.stdout).toBe(site); // an even number of flips
    expect(result.code).toBe(1);
  });

  it('a run that settles says nothing of the kind', async () => {
    useRules(port8080);
    const root = tree({ 'site.conf': site });
    const result = await check(root, ['site.conf', '--fix']);
    expect(result.stderr).not.toContain('passes');
    expect(result.code).toBe(0);
  });
});

describe('--unsafe-fixes', () => {
  const site = 'server {\n  listen 80;\n}\n';

  it('--fix leaves unsafe fixes alone and the report says how to apply them', async () => {
    useRules(unsafePort, port8080);
    const root = tree({ 'site.conf': 'server {\n  listen 80;\n}\nserver {\n  listen 81;\n}\n' });
    const before = await check(root, ['site.conf']);
    expect(before.stdout).toContain('[*unsafe] port 80 is plain HTTP');
    expect(before.stdout).toContain('[*] port-8080 here');
    expect(before.stdout).toContain('  1 fixable with --fix (1 more with --unsafe-fixes)\n');
    const after = await check(root, ['site.conf', '--fix']);
    // Both fixes rewrite the same port: the unsafe one, though first, is not taken, so the safe one is.
    expect(readFileSync(path.join(root, 'site.conf'), 'utf8')).toBe('server {\n  listen 8080;\n}\nserver {\n  listen 81;\n}\n');
    expect(after.code).toBe(0);
  });

  it('--fix --unsafe-fixes applies them; without --fix it counts them as fixable', async () => {
    useRules(unsafePort);
    const root = tree({ 'site.conf': site });
    const counted = await check(root, ['site.conf', '--unsafe-fixes', '--format', 'json']);
    expect(JSON.parse(counted.stdout)[0]).toMatchObject({ fixableWarningCount: 1 });
    const plain = await check(root, ['site.conf', '--format', 'json']);
    expect(JSON.parse(plain.stdout)[0]).toMatchObject({ fixableWarningCount: 0 });
    expect(JSON.parse(plain.stdout)[0].messages[0]).toMatchObject({ fixSafety: 'unsafe', detail: 'clients reach this server unencrypted' });

    const safeOnly = await check(root, ['site.conf', '--fix']);
    expect(readFileSync(path.join(root, 'site.conf'), 'utf8')).toBe(site);
    expect(safeOnly.stdout).toContain('  1 fixable with --fix --unsafe-fixes\n');
    expect(safeOnly.code).toBe(1);

    const dryRun = await check(root, ['site.conf', '--fix-dry-run', '--unsafe-fixes']);
    expect(dryRun.stdout).toContain('+  listen 8443;');
    const fixed = await check(root, ['site.conf', '--fix', '--unsafe-fixes']);
    expect(readFileSync(path.join(root, 'site.conf'), 'utf8')).toBe('server {\n  listen 8443;\n}\n');
    expect(fixed.code).toBe(0);
  });

  it('--verbose prints the detail, --statistics counts per rule', async () => {
    useRules(unsafePort, port8080);
    const root = tree({ 'site.conf': site });
    const result = await check(root, ['site.conf', '--verbose', '--statistics']);
    expect(result.stdout).toContain('\n    clients reach this server unencrypted\n');
    expect(result.stdout).toContain('\nFindings per rule:\n');
    expect(result.stdout).toContain('\nFindings per rule:\n  1  port-8080    1 fixable\n  1  unsafe-port  1 fixable with --unsafe-fixes\n');
    const quiet = await check(root, ['site.conf']);
    expect(quiet.stdout).not.toContain('clients reach');
  });
});

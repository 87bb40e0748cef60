// Issue 25 item 1 through the built CLI on real files: a location proxying to someone else's server keeps its unsafe
// header copy out of `check --fix` and `--fix-dry-run`, although proxy-pass-no-upstream's safe fix first rewrites
// the pass to a new upstream{} (whose server is that stranger's host). Only --unsafe-fixes sends X-Real-IP there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../support/fixture-cases.js';
import { runCli, useTempTrees } from './helpers.js';

const SITE = readFileSync(path.join(FIXTURES_DIR, 'proxy-set-header-inheritance/invalid-third-party-rewritten.conf'), 'utf8');
const tree = useTempTrees();

/** The /pay/ location's body in `text`. */
const payLocation = (text: string) => text.slice(text.indexOf('location /pay/ {'), text.indexOf('}', text.indexOf('location /pay/ {')));

type Report = { messages: { ruleId: string; fixSafety?: string }[] };

describe('check --fix towards a third party', () => {
  it('rewrites the pass to an upstream but never copies X-Real-IP or X-Forwarded-For into it', () => {
    const root = tree({ 'nginx.conf': SITE });
    const result = runCli(root, ['check', '--fix', '--format', 'json']);
    const fixed = readFileSync(path.join(root, 'nginx.conf'), 'utf8');
    expect(fixed).toContain('server api.payments.example:443;');
    expect(fixed).toContain('proxy_pass https://backend_api_payments_example_443;');
    expect(payLocation(fixed)).not.toMatch(/X-Real-IP|X-Forwarded-For/);
    const [report] = JSON.parse(result.stdout) as Report[];
    expect(report!.messages).toEqual([expect.objectContaining({ ruleId: 'proxy-set-header-inheritance', fixSafety: 'unsafe' })]);
    expect(result.status).toBe(1);
  });

  it('--fix-dry-run shows the same: no header copy in the diff, and the unsafe finding left', () => {
    const root = tree({ 'nginx.conf': SITE });
    const result = runCli(root, ['check', '--fix-dry-run']);
    expect(result.stdout).toContain('+            proxy_pass https://backend_api_payments_example_443;');
    expect(result.stdout).not.toMatch(/^\+.*X-(Real-IP|Forwarded-For)/m);
    expect(result.stderr).toContain('1 problem would remain');
    expect(readFileSync(path.join(root, 'nginx.conf'), 'utf8')).toBe(SITE);
  });

  it('--fix --unsafe-fixes copies them, as asked', () => {
    const root = tree({ 'nginx.conf': SITE });
    runCli(root, ['check', '--fix', '--unsafe-fixes']);
    const fixed = readFileSync(path.join(root, 'nginx.conf'), 'utf8');
    expect(payLocation(fixed)).toContain('proxy_set_header X-Real-IP $remote_addr;');
    expect(fixed).toContain('proxy_pass https://backend_api_payments_example_443;');
  });
});

// The hover and the rules agree: over every fixture, for nginx 1.22 and 1.30, each check of the upstream and pass
// hovers that names a rule is a finding of that rule at the place it names (✗ for a warning, ? for information, but ✗
// for `keepalive 0`: information, as it may be deliberate, yet certainly off),
// and every finding of the keepalive rules shows up as such a check. The hover reads the rules' detect() states
// (features/rule-states.ts); this test holds it to the findings analyze() prints.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { resolveOptions } from '../../server/src/engine/options.js';
import { passes, usersOf } from '../../server/src/analysis/passes.js';
import { upstreams } from '../../server/src/analysis/upstreams.js';
import { keepaliveState } from '../../server/src/analysis/keepalive-state.js';
import { passReuse } from '../../server/src/features/reuse-pass.js';
import { balancerCheck, keepaliveCheck, type ReuseCheck } from '../../server/src/features/reuse-upstream.js';
import type { Finding } from '../../server/src/util/types.js';
import { collectCases, FIXTURES_DIR, fixtureHost } from '../support/fixture-cases.js';
import { hoverAt } from '../../server/src/features/hover.js';
import { analyze } from './support.js';

/** The rules whose verdicts the hover shows. */
const HOVER_RULES = new Set([
  'upstream-keepalive',
  'keepalive-order',
  'proxy-http-version',
  'connection-header-missing',
  'connection-header-passthrough',
  'connection-map-close',
  'fastcgi-keep-conn',
]);

const key = (ruleId: string, file: string, offset: number) => `${ruleId} ${file}:${offset}`;

interface Agreement {
  problems: string[];
  /** The rules the checks named. */
  named: Set<string>;
}

function checkAgainst(
  checks: readonly ReuseCheck[],
  findings: Map<string, Finding>,
  shown: Set<string>,
  where: string,
  out: Agreement,
  offSwitch = false,
) {
  for (const check of checks) {
    if (!check.ruleId) continue;
    out.named.add(check.ruleId);
    const at = check.reportedAt;
    const finding = at && findings.get(key(check.ruleId, at.file, at.offset));
    if (!at || !finding) {
      out.problems.push(`${where}: ${check.label} names ${check.ruleId}, which reports nothing there`);
      continue;
    }
    shown.add(key(check.ruleId, at.file, at.offset));
    const decided = offSwitch && check.ruleId === 'upstream-keepalive';
    const expected = finding.severity === 'info' && !decided ? 'unknown' : 'fail';
    if (check.status !== expected) out.problems.push(`${where}: ${check.label} is ${check.status}, the finding is ${finding.severity}`);
  }
}

async function agreement(files: string[], nginxVersion: string): Promise<Agreement> {
  const docs = files.map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
  const { workspace, findings } = await analyzeWorkspace(docs, { nginxVersion, host: fixtureHost() });
  const options = resolveOptions({ nginxVersion });
  const reported = new Map<string, Finding>();
  for (const finding of findings) {
    if (HOVER_RULES.has(finding.ruleId)) reported.set(key(finding.ruleId, finding.file, finding.span.startOffset), finding);
  }
  const shown = new Set<string>();
  const out: Agreement = { problems: [], named: new Set() };
  for (const upstream of upstreams(workspace)) {
    const where = `upstream ${upstream.name}`;
    const offSwitch = keepaliveState(upstream, options).kind === 'zero';
    const upstreamChecks = [keepaliveCheck(workspace, upstream, options), balancerCheck(workspace, upstream, options)];
    checkAgainst(upstreamChecks, reported, shown, where, out, offSwitch);
    for (const pass of usersOf(workspace, upstream)) {
      const verdict = passReuse(workspace, pass, upstream, options);
      checkAgainst(verdict.checks, reported, shown, `${pass.name} at ${pass.directive.span.start.line + 1}`, out, offSwitch);
    }
  }
  // Every pass-level finding is shown at its pass; passthrough is reported on lines no pass may read (so only the
  // hover's direction is checked for it).
  for (const [id, finding] of reported) {
    if (finding.ruleId === 'connection-header-passthrough' || shown.has(id)) continue;
    const atPass = passes(workspace).some((pass) => pass.directive.file.path === finding.file);
    if (finding.ruleId === 'connection-map-close' && !atPass) continue;
    out.problems.push(`${finding.ruleId} at ${path.basename(finding.file)}:${finding.span.start.line + 1} is not in any hover`);
  }
  return out;
}

// Suppression comments hide findings the hover still shows: those fixtures say nothing about agreement.
const cases = collectCases().filter((fixture) => fixture.files.every((file) => !readFileSync(file, 'utf8').includes('nginx-keepalive-ignore')));

describe('hover verdicts equal the rules findings', () => {
  for (const nginxVersion of ['1.22.1', '1.30.0']) {
    it(`on every fixture, for nginx ${nginxVersion}`, async () => {
      const problems: string[] = [];
      const named = new Set<string>();
      for (const fixture of cases) {
        const result = await agreement(fixture.files, nginxVersion);
        for (const id of result.named) named.add(id);
        for (const problem of result.problems) problems.push(`${path.relative(FIXTURES_DIR, fixture.files[0]!)}: ${problem}`);
      }
      expect(problems).toEqual([]);
      // Not vacuous: the fixtures make the hover name every rule it shows (keepalive-order only before 1.29.7).
      const expected = [...HOVER_RULES].filter((id) => nginxVersion === '1.22.1' || id !== 'keepalive-order');
      expect([...named].sort()).toEqual(expected.sort());
    });
  }
});

describe('the drift that made the hover a copy of nothing', () => {
  const site = 'http {\n  upstream app {\n    server 127.0.0.1:3000;\n    keepalive 0;\n  }\n}\n';

  it('`keepalive 0` names upstream-keepalive only where the rule reports it (from 1.29.7)', async () => {
    const modern = await analyze({ 'nginx.conf': site }, undefined, { nginxVersion: '1.30.0' });
    const modernHover = hoverAt(modern.ctx, modern.at('upstream app', 'upstream '.length + 1))!.markdown;
    expect(modernHover).toContain('- ✗ **keepalive**: `keepalive 0;` (nginx.conf:4) disables the connection cache ([upstream-keepalive]');

    const old = await analyze({ 'nginx.conf': site }, undefined, { nginxVersion: '1.22.1' });
    const oldHover = hoverAt(old.ctx, old.at('upstream app', 'upstream '.length + 1))!.markdown;
    expect(oldHover).toContain('- ✗ **keepalive**: `keepalive 0;` (nginx.conf:4) is an invalid value before nginx 1.29.7 (nginx -t rejects it)\n');
    expect(oldHover).not.toContain('upstream-keepalive');
  });
});

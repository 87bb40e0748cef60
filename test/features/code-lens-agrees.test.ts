// The code lens and the rules agree: over every fixture, for nginx 1.22 and 1.30, each "needs X" of a lens that names
// a rule is a finding of that rule at the place it names, each upstream-level claim ("keepalive off", "keepalive
// ignored") is one too, a pass counted "ready" has no finding of the keepalive rules at its pass directive nor at its
// upstream, and every pass-level finding at a pass using an upstream is counted as a need of that pass. The lens
// reads the rules' detect() states (features/rule-states.ts); this test holds it to the findings analyze() prints.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { upstreamLenses } from '../../server/src/features/code-lens.js';
import type { ReuseCheck } from '../../server/src/features/reuse-upstream.js';
import type { Finding } from '../../server/src/util/types.js';
import { collectCases, FIXTURES_DIR, fixtureHost } from '../support/fixture-cases.js';

const PASS_RULES = new Set(['proxy-http-version', 'connection-header-missing', 'fastcgi-keep-conn']);
const UPSTREAM_RULES = new Set(['upstream-keepalive', 'keepalive-order']);
const LENS_RULES = new Set([...PASS_RULES, ...UPSTREAM_RULES, 'connection-header-passthrough', 'connection-map-close']);

const key = (ruleId: string, file: string, offset: number) => `${ruleId} ${file}:${offset}`;

interface Agreement {
  problems: string[];
  /** The rules the lenses' claims named. */
  named: Set<string>;
  /** How many passes were counted ready, and how many as needing something (not vacuous). */
  ready: number;
  needs: number;
}

function claimed(check: ReuseCheck, findings: Map<string, Finding>, where: string, out: Agreement): void {
  if (!check.ruleId) return;
  out.named.add(check.ruleId);
  const at = check.reportedAt;
  if (!at || !findings.has(key(check.ruleId, at.file, at.offset))) out.problems.push(`${where}: ${check.label} names ${check.ruleId}, which reports nothing there`);
}

async function agreement(files: string[], nginxVersion: string): Promise<Agreement> {
  const docs = files.map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
  const options = { nginxVersion, host: fixtureHost() };
  const { workspace, findings } = await analyzeWorkspace(docs, options);
  const reported = new Map<string, Finding>();
  for (const finding of findings) {
    if (LENS_RULES.has(finding.ruleId)) reported.set(key(finding.ruleId, finding.file, finding.span.startOffset), finding);
  }
  const at = (rules: ReadonlySet<string>, file: string, from: number, to: number) =>
    findings.filter((f) => rules.has(f.ruleId) && f.file === file && f.span.startOffset >= from && f.span.startOffset < to);
  const out: Agreement = { problems: [], named: new Set(), ready: 0, needs: 0 };
  const counted = new Set<string>();
  const usedPasses = new Set<string>();
  const outlooks = new Map<string, string>();
  for (const file of workspace.files) {
    for (const lens of upstreamLenses({ workspace, file, options })) {
      const { upstream } = lens;
      const where = `upstream ${upstream.name} (${lens.title})`;
      for (const check of lens.upstreamChecks) claimed(check, reported, where, out);
      const block = upstream.directive.span;
      for (const passLens of lens.passes) {
        const pass = passLens.pass.directive;
        usedPasses.add(`${pass.file.path}:${pass.span.startOffset}`);
        outlooks.set(`${pass.file.path}:${pass.span.startOffset}`, passLens.outlook);
        const passWhere = `${where}: ${pass.name} at ${path.basename(pass.file.path)}:${pass.span.start.line + 1}`;
        if (passLens.outlook === 'ready') {
          out.ready++;
          const against = [
            ...at(PASS_RULES, pass.file.path, pass.span.startOffset, pass.span.startOffset + 1),
            ...at(UPSTREAM_RULES, upstream.directive.file.path, block.startOffset, block.endOffset),
          ];
          for (const finding of against) out.problems.push(`${passWhere} counted ready, but ${finding.ruleId} reports it`);
        }
        if (passLens.outlook === 'needs') out.needs++;
        for (const need of passLens.needs) {
          claimed(need, reported, passWhere, out);
          if (need.reportedAt) counted.add(key(need.ruleId!, need.reportedAt.file, need.reportedAt.offset));
        }
      }
    }
  }
  // The other direction: a pass rule's finding at a pass that uses an upstream is a need in that upstream's lens; an
  // information one (what an unread include decides) makes the pass's outlook unknown instead, unless it needs more.
  for (const finding of findings) {
    if (!PASS_RULES.has(finding.ruleId) || !usedPasses.has(`${finding.file}:${finding.span.startOffset}`)) continue;
    if (finding.severity === 'info') {
      const outlook = outlooks.get(`${finding.file}:${finding.span.startOffset}`);
      if (outlook !== 'unknown' && outlook !== 'needs') out.problems.push(`${finding.ruleId} at ${path.basename(finding.file)}:${finding.span.start.line + 1} is information, but the lens says ${outlook}`);
      continue;
    }
    if (!counted.has(key(finding.ruleId, finding.file, finding.span.startOffset))) {
      out.problems.push(`${finding.ruleId} at ${path.basename(finding.file)}:${finding.span.start.line + 1} is in no lens`);
    }
  }
  return out;
}

// Suppression comments hide findings the lens still counts: those fixtures say nothing about agreement.
const cases = collectCases().filter((fixture) => fixture.files.every((file) => !readFileSync(file, 'utf8').includes('nginx-keepalive-ignore')));

describe('code lens claims equal the rules findings', () => {
  for (const nginxVersion of ['1.22.1', '1.30.0']) {
    it(`on every fixture, for nginx ${nginxVersion}`, async () => {
      const problems: string[] = [];
      const named = new Set<string>();
      let ready = 0;
      let needs = 0;
      for (const fixture of cases) {
        const result = await agreement(fixture.files, nginxVersion);
        for (const id of result.named) named.add(id);
        ready += result.ready;
        needs += result.needs;
        for (const problem of result.problems) problems.push(`${path.relative(FIXTURES_DIR, fixture.files[0]!)}: ${problem}`);
      }
      expect(problems).toEqual([]);
      // Not vacuous: passes of both kinds, and the lens names every rule it can show (keepalive-order only before 1.29.7).
      expect(ready).toBeGreaterThan(5);
      expect(needs).toBeGreaterThan(5);
      const expected = [...LENS_RULES].filter((id) => nginxVersion === '1.22.1' || id !== 'keepalive-order');
      expect([...named].sort()).toEqual(expected.sort());
    });
  }
});

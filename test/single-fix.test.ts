// Applying any one offered fix, alone, never creates a finding that was not there before (issue 13: "titles tell the
// truth"; a quick fix must not do more than its title, nor bring out another rule's warning). Over every fixture
// case and every corpus file that parses cleanly (each analyzed alone, as test/corpus-fix.test.ts does), for nginx
// 1.22 and 1.30: for each fixable finding, its edits are applied to a copy of the texts and the copy is analyzed
// again; no (rule, file) pair may count more findings than before. A fix that cannot be built after all (its
// finding said it was fixable) is a failure too: the cheap flag must not promise what is not there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../server/src/engine/analyze.js';
import { applyEdits } from '../server/src/fixes/edits.js';
import type { AnalyzeOptions } from '../server/src/engine/types.js';
import type { FileHost, Finding, SourceDocument, TextEdit } from '../server/src/util/types.js';
import { entries, mustParseClean } from './corpus/manifest.js';
import { collectCases, FIXTURES_DIR, fixtureHost, overlayHost } from './support/fixture-cases.js';

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };

function counts(findings: readonly Finding[]): Map<string, number> {
  const byKey = new Map<string, number>();
  for (const finding of findings) {
    const key = `${finding.ruleId} ${finding.file}`;
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  return byKey;
}

function textsAfter(docs: readonly SourceDocument[], host: FileHost, edits: readonly TextEdit[]): Map<string, string> {
  const byFile = new Map<string, TextEdit[]>();
  for (const edit of edits) byFile.set(path.resolve(edit.file), [...(byFile.get(path.resolve(edit.file)) ?? []), edit]);
  const texts = new Map<string, string>();
  for (const [file, fileEdits] of byFile) {
    const base = docs.find((doc) => path.resolve(doc.path) === file)?.text ?? host.readFile(file);
    if (base === undefined) throw new Error(`a fix edits ${file}, which cannot be read`);
    texts.set(file, applyEdits(base, fileEdits));
  }
  return texts;
}

/** The problems of one case: fixes that bring out new findings, or that are flagged fixable but cannot be built. */
async function singleFixProblems(docs: SourceDocument[], options: AnalyzeOptions, host: FileHost, name: string): Promise<string[]> {
  const before = await analyze(docs, { ...options, host });
  const beforeCounts = counts(before);
  const problems: string[] = [];
  for (const finding of before) {
    if (!finding.fixable) continue;
    const fix = finding.fix;
    const where = `${name}:${finding.span.start.line + 1} ${finding.ruleId}`;
    if (!fix) {
      problems.push(`${where}: flagged fixable, but no fix could be built`);
      continue;
    }
    const texts = textsAfter(docs, host, fix.edits);
    const fixedDocs = docs.map((doc) => ({ ...doc, text: texts.get(path.resolve(doc.path)) ?? doc.text }));
    const after = await analyze(fixedDocs, { ...options, host: overlayHost(host, texts) });
    for (const [key, count] of counts(after)) {
      if (count > (beforeCounts.get(key) ?? 0)) problems.push(`${where} ("${fix.title}") brings out ${key.split(' ')[0]}`);
    }
  }
  return problems;
}

const fixtureCases = collectCases();
const corpus = entries.filter(mustParseClean);

describe('a single fix', () => {
  for (const nginxVersion of ['1.22.1', '1.30.0']) {
    it(`creates no new finding on any fixture, for nginx ${nginxVersion}`, async () => {
      const problems: string[] = [];
      for (const fixture of fixtureCases) {
        const docs = fixture.files.map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
        const name = path.relative(FIXTURES_DIR, fixture.files[0]!);
        for (const problem of await singleFixProblems(docs, { nginxVersion }, fixtureHost(), name)) problems.push(problem);
      }
      expect(problems).toEqual([]);
    });

    it(`creates no new finding on any corpus file, for nginx ${nginxVersion}`, async () => {
      const problems: string[] = [];
      for (const entry of corpus) {
        const docs = [{ path: entry.absPath, text: readFileSync(entry.absPath, 'utf8') }];
        for (const problem of await singleFixProblems(docs, { nginxVersion }, isolated, entry.file)) problems.push(problem);
      }
      expect(problems).toEqual([]);
    }, 300_000);
  }
});

// The parser against the real-world corpus: files real nginx accepted (and the Dokku/ingress-nginx templates) must
// give no `syntax` finding; files nginx rejected with a syntax error in the file itself must give one.
// Each file is analyzed alone, with a file host that knows no other file: includes are other rules' business.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../server/src/engine/analyze.js';
import type { FileHost, Finding } from '../server/src/util/types.js';
import { MANIFEST_PATH, entries, isSyntaxInvalid, mustParseClean, parseTsv, type CorpusEntry } from './corpus/manifest.js';

// Expected set sizes for the committed corpus (recount when scripts/import-corpus.mjs re-imports it): a loader or
// classifier that silently drops rows must not turn the corpus checks into checks of nothing.
const EXPECTED = { entries: 610, mustParseClean: 425, syntaxInvalid: 0, jinja: 23 };

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };

async function syntaxFindings(entry: CorpusEntry): Promise<Finding[]> {
  const text = readFileSync(entry.absPath, 'utf8');
  const findings = await analyze([{ path: entry.absPath, text }], { host: isolated });
  // The isolated host reads no other file, so every finding is about this one.
  return findings.filter((f) => f.ruleId === 'syntax');
}

function describeFinding(entry: CorpusEntry, f: Finding | undefined, count: number): string {
  if (!f) return `${entry.file}: no syntax finding (nginx -t said: ${entry.nginx_t})`;
  return `${entry.file}:${f.span.start.line + 1}:${f.span.start.column + 1} ${f.message} (${count} syntax finding${count === 1 ? '' : 's'})`;
}

describe('corpus manifest', () => {
  it('parses TSV with quoted fields and "" escapes', () => {
    expect(parseTsv('a\tb\n"x\ty"\t"say ""hi"""\n\t\n"multi\nline"\tz')).toEqual([
      ['a', 'b'],
      ['x\ty', 'say "hi"'],
      ['', ''],
      ['multi\nline', 'z'],
    ]);
    expect(() => parseTsv('"open\tb\n')).toThrow(/unterminated/);
    expect(() => parseTsv('"a"b\tc\n')).toThrow(/after a quoted field/);
  });

  it('loads every row, and every file is the byte-exact copy it claims to be', () => {
    const rows = readFileSync(MANIFEST_PATH, 'utf8').split('\n').filter((l) => l.length > 0).length - 1;
    expect(entries.length).toBe(rows);
    expect(entries.length).toBe(EXPECTED.entries);
    const wrongSize = entries.filter((e) => statSync(e.absPath).size !== Number(e.bytes)).map((e) => e.file);
    expect(wrongSize).toEqual([]);
  });

  it('classifies the expected number of files', () => {
    expect(entries.filter(mustParseClean).length).toBe(EXPECTED.mustParseClean);
    expect(entries.filter(isSyntaxInvalid).length).toBe(EXPECTED.syntaxInvalid);
    // Every Dokku template is in the clean set, whatever nginx -t said (templates are not rendered for it).
    expect(entries.filter((e) => e.kind === 'sigil').every(mustParseClean)).toBe(true);
    // So is every Jinja2 template (test/corpus/jinja/, issue 11 item 2).
    const jinja = entries.filter((e) => e.kind === 'jinja');
    expect(jinja.length).toBe(EXPECTED.jinja);
    expect(jinja.every(mustParseClean)).toBe(true);
  });
});

describe('corpus parses like nginx', () => {
  it(`Jinja2 templates give no syntax finding (${EXPECTED.jinja} files)`, async () => {
    const failures: string[] = [];
    for (const entry of entries.filter((e) => e.kind === 'jinja')) {
      const found = await syntaxFindings(entry);
      if (found.length > 0) failures.push(describeFinding(entry, found[0], found.length));
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it(`valid files and templates give no syntax finding (${EXPECTED.mustParseClean} files)`, async () => {
    const clean = entries.filter(mustParseClean);
    const failures: string[] = [];
    for (const entry of clean) {
      const found = await syntaxFindings(entry);
      if (found.length > 0) failures.push(describeFinding(entry, found[0], found.length));
    }
    const summary = `${failures.length} of ${clean.length} files give syntax findings:\n${failures.join('\n')}`;
    expect(failures, summary).toEqual([]);
  });

  it(`files nginx rejects with a syntax error give a syntax finding (${EXPECTED.syntaxInvalid} files)`, async () => {
    const invalid = entries.filter(isSyntaxInvalid);
    const failures: string[] = [];
    for (const entry of invalid) {
      const found = await syntaxFindings(entry);
      if (found.length === 0) failures.push(describeFinding(entry, undefined, 0));
    }
    const summary = `${failures.length} of ${invalid.length} files give no syntax finding:\n${failures.join('\n')}`;
    expect(failures, summary).toEqual([]);
  });
});

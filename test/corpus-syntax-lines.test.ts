// Syntax errors where nginx puts them (issue 13 item 10): for every corpus file that nginx -t rejects for syntax, our
// first `syntax` finding should be on nginx's line and worded as nginx words it. MANIFEST.tsv holds nginx -t's verdict
// for the literal files; templates it did not run (placeholders such as `root {MAINTENANCE_ROOT};`) are checked here
// with the real nginx, included at the file's context. Templates our grammar reads (Go actions, Jinja tags) are left
// out: nginx stops on their first `{{`, which we read by design. The invalid syntax fixtures are a second sample.
// The agreement (lines and wording counted apart; wording is nginx's message, optionally followed by a note of ours in
// parentheses) is printed, with every disagreement, and held to a floor.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../server/src/engine/analyze.js';
import { inferRootContext } from '../server/src/model/context.js';
import { parseFile } from '../server/src/model/file-loader.js';
import type { ContextName } from '../server/src/model/types.js';
import { loadNginxParser } from '../server/src/parser/loader.js';
import type { FileHost, Finding } from '../server/src/util/types.js';
import { entries, mustParseClean, type CorpusEntry } from './corpus/manifest.js';
import { parseFixture, type NginxContext } from './support/expectations.js';
import { nginxTest, wrapInclude, type NginxMessage } from './support/nginx.js';

// What the agreement may not drop below (recount when the corpus or nginx changes): files in the sample, and how many
// of them agree on the line, on the words, and on both.
const FLOOR = { corpus: { sample: 18, line: 18, wording: 18, both: 18 }, fixtures: { sample: 12, line: 12, wording: 12, both: 12 } };

// The messages of ngx_conf_read_token, ngx_conf_parse and ngx_conf_handler's block checks: nginx's syntax errors.
// (`unknown directive`, `not allowed here`, `invalid number of arguments` are about the directive table, not syntax.)
const NGINX_SYNTAX =
  /^(unexpected "|unexpected end of (file|parameter)|directive "[^"]+" is not terminated by ";"|directive "[^"]+" has no opening "\{"|too long parameter)/;

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };
const root = path.dirname(fileURLToPath(import.meta.url));
const syntaxDir = path.join(root, 'fixtures', 'syntax');

interface Verdict {
  line: number;
  message: string;
}

interface Comparison {
  name: string;
  nginx: Verdict;
  ours: Finding | undefined;
}

/** The MANIFEST's nginx -t message when it is a syntax error in the file itself. */
function manifestVerdict(entry: CorpusEntry): Verdict | undefined {
  if (!entry.nginx_t.startsWith('fail:')) return undefined;
  const m = /^\[emerg\] (.*) in <file>:(\d+)$/.exec(entry.nginx_t.slice('fail:'.length));
  return m && NGINX_SYNTAX.test(m[1]!) ? { message: m[1]!, line: Number(m[2]) } : undefined;
}

function syntaxVerdict(first: NginxMessage | undefined, file: string): Verdict | undefined {
  if (!first || first.file !== file || first.line === undefined || !NGINX_SYNTAX.test(first.message)) return undefined;
  return { line: first.line, message: first.message };
}

async function firstSyntaxFinding(file: string, text: string): Promise<Finding | undefined> {
  const findings = await analyze([{ path: file, text }], { host: isolated });
  return findings.filter((f) => f.ruleId === 'syntax').sort((a, b) => a.span.startOffset - b.span.startOffset)[0];
}

async function corpusSample(): Promise<Comparison[]> {
  const parser = await loadNginxParser();
  const sample: Comparison[] = [];
  for (const entry of entries) {
    if (mustParseClean(entry)) continue;
    const text = readFileSync(entry.absPath, 'utf8');
    const model = parseFile(parser, entry.absPath, text);
    if (model.isTemplate) continue;
    let nginx = manifestVerdict(entry);
    if (!nginx && entry.nginx_t.startsWith('skipped:')) {
      const inferred = inferRootContext(model);
      const context = (entry.nginx_t_context || (inferred === 'stream' ? 'http' : inferred)) as NginxContext;
      nginx = syntaxVerdict(nginxTest((prefix) => wrapInclude(entry.absPath, context, prefix)).errors[0], entry.absPath);
    }
    if (nginx) sample.push({ name: entry.file, nginx, ours: await firstSyntaxFinding(entry.absPath, text) });
  }
  return sample;
}

async function fixtureSample(): Promise<Comparison[]> {
  const sample: Comparison[] = [];
  for (const name of readdirSync(syntaxDir).filter((f) => f.startsWith('invalid-') && f.endsWith('.conf')).sort()) {
    const file = path.join(syntaxDir, name);
    const text = readFileSync(file, 'utf8');
    const context: ContextName = parseFixture(text, name).options.context ?? 'http';
    const result = nginxTest((prefix) => wrapInclude(file, context as NginxContext, prefix));
    const nginx = syntaxVerdict(result.errors[0], file);
    if (nginx) sample.push({ name, nginx, ours: await firstSyntaxFinding(file, text) });
  }
  return sample;
}

function tally(label: string, sample: Comparison[]) {
  const sameLine = (c: Comparison) => c.ours !== undefined && c.ours.span.start.line + 1 === c.nginx.line;
  // nginx's words, exactly or followed by a note of ours in parentheses (where an unterminated string opened).
  const sameWords = (c: Comparison) =>
    c.ours !== undefined && (c.ours.message === c.nginx.message || c.ours.message.startsWith(`${c.nginx.message} (`));
  const counts = {
    sample: sample.length,
    line: sample.filter(sameLine).length,
    wording: sample.filter(sameWords).length,
    both: sample.filter((c) => sameLine(c) && sameWords(c)).length,
  };
  const pct = (n: number) => (counts.sample === 0 ? 'n/a' : `${((100 * n) / counts.sample).toFixed(0)}%`);
  const disagreements = sample
    .filter((c) => !sameLine(c) || !sameWords(c))
    .map((c) => {
      const ours = c.ours ? `${c.ours.span.start.line + 1}: ${c.ours.message}` : 'no syntax finding';
      return `  ${c.name}\n    nginx ${c.nginx.line}: ${c.nginx.message}\n    ours  ${ours}`;
    });
  console.log(
    `${label}: ${counts.sample} files nginx rejects for syntax; first syntax finding on nginx's line ${counts.line} ` +
      `(${pct(counts.line)}), in nginx's words ${counts.wording} (${pct(counts.wording)}), both ${counts.both} ` +
      `(${pct(counts.both)})${disagreements.length > 0 ? `\ndisagreements:\n${disagreements.join('\n')}` : ''}`,
  );
  return { counts, report: disagreements.join('\n') };
}

describe('syntax errors where nginx puts them', () => {
  it('corpus files nginx rejects for syntax', async () => {
    const { counts, report } = tally('corpus', await corpusSample());
    expect(counts.sample, report).toBeGreaterThanOrEqual(FLOOR.corpus.sample);
    expect(counts.line, report).toBeGreaterThanOrEqual(FLOOR.corpus.line);
    expect(counts.wording, report).toBeGreaterThanOrEqual(FLOOR.corpus.wording);
    expect(counts.both, report).toBeGreaterThanOrEqual(FLOOR.corpus.both);
  });

  it('invalid syntax fixtures', async () => {
    const { counts, report } = tally('fixtures', await fixtureSample());
    expect(counts.sample, report).toBeGreaterThanOrEqual(FLOOR.fixtures.sample);
    expect(counts.line, report).toBeGreaterThanOrEqual(FLOOR.fixtures.line);
    expect(counts.wording, report).toBeGreaterThanOrEqual(FLOOR.fixtures.wording);
    expect(counts.both, report).toBeGreaterThanOrEqual(FLOOR.fixtures.both);
  });
});

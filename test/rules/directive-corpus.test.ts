// The `directive` rule measured against real nginx on the corpus (MANIFEST.tsv's nginx_t: nginx 1.22.1, each file
// included alone at main, http, server, location or stream level). Each file is analyzed alone, as nginx tested it,
// for nginx 1.22.1:
// - every file nginx accepted gets no `directive` finding;
// - every file nginx rejected for a reason the rule covers (unknown directive, not allowed here, invalid number of
//   arguments, a flag's or enum's invalid value, is duplicate) in the file itself gets the same verdict on the same
//   line, and files nginx refused for an unknown directive (the manifest's "skipped: unknown directive" rows, whose
//   line it did not keep) get an unknown-directive finding naming it. The agreement rate is printed.
// Fixes use the table: fixAll on every corpus file that must parse cleanly adds no `directive` finding.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import type { FileHost, Finding, SeveritySetting } from '../../server/src/util/types.js';
import { rules } from '../../server/src/rules/registry.js';
import { entries, mustParseClean, type CorpusEntry } from '../corpus/manifest.js';
import { directiveEntries, moduleInfo } from '../../server/src/model/directive-table.js';

/** A disagreement over `unknown directive "x"` where the table has x from a module outside Debian's packages. */
function outOfTree(line: string): boolean {
  const name = /nginx (?:"?)unknown directive \\?"([^"\\]+)\\?"/.exec(line)?.[1];
  const known = name ? directiveEntries(name) : [];
  return known.length > 0 && known.every((entry) => moduleInfo(entry.module)?.package !== undefined && moduleInfo(entry.module)?.debian === undefined);
}

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };
const onlyDirective: Record<string, SeveritySetting> = Object.fromEntries(
  rules.map((rule) => [rule.meta.id, rule.meta.id === 'directive' ? 'error' : 'off']),
);

async function directiveFindings(entry: CorpusEntry, text = readFileSync(entry.absPath, 'utf8')): Promise<Finding[]> {
  const findings = await analyze([{ path: entry.absPath, text }], { host: isolated, nginxVersion: '1.22.1', rules: onlyDirective });
  return findings.filter((finding) => finding.ruleId === 'directive');
}

/** nginx's messages for what the rule covers, in the file itself (`in <file>:N`). */
const COVERED = /^fail:\[emerg\] (unknown directive "[^"]+"|"[^"]+" directive is (?:not allowed here|duplicate)|invalid number of arguments in "[^"]+" directive|invalid value "[^"]+" in "[^"]+" directive, it must be [^\n]*?) in <file>:(\d+)$/;
const UNKNOWN_SKIPPED = /^skipped:unknown directive "([^"]+)"/;

/** The rule's finding for nginx's message, by kind: the rule's headlines keep nginx's wording where they can. */
function sameVerdict(nginx: string, finding: Finding): boolean {
  const name = /"([^"]+)"/.exec(nginx)?.[1] ?? '';
  if (!finding.message.includes(`"${name}"`)) return false;
  if (nginx.startsWith('unknown directive')) return /unknown directive|is from|needs nginx|was removed|is an NGINX Plus directive/.test(finding.message);
  if (nginx.includes('not allowed here')) return finding.message.includes('is not allowed in');
  if (nginx.includes('is duplicate')) return finding.message.includes('is duplicate');
  if (nginx.startsWith('invalid number')) return finding.message.startsWith('invalid number of arguments');
  return finding.message.startsWith('invalid value');
}

/** Whether `name` starts a statement of the file (a line beginning with it, outside comments). */
function writesDirective(entry: CorpusEntry, name: string): boolean {
  return readFileSync(entry.absPath, 'utf8')
    .split('\n')
    .some((line) => line.trimStart().startsWith(`${name} `) || line.trimStart().startsWith(`${name};`));
}

/** Whether the corpus file has a load_module of an object Debian does not ship (so not in the directive table). */
function loadsUnknownModule(file: string): boolean {
  const entry = entries.find((candidate) => candidate.file === file)!;
  const objects = [...readFileSync(entry.absPath, 'utf8').matchAll(/^\s*load_module\s+\S*?([A-Za-z0-9_]+)\.so;/gm)].map((m) => m[1]);
  const debian = new Set(['ngx_stream_module', 'ngx_mail_module', 'ndk_http_module', 'ngx_http_lua_module', 'ngx_http_echo_module']);
  return objects.some((object) => !debian.has(object!));
}

describe('the directive rule against nginx -t on the corpus', () => {
  it('reports nothing on every file nginx accepts, and agrees with nginx on the files it rejects', async () => {
    const accepted = entries.filter((entry) => entry.nginx_t === 'ok');
    expect(accepted.length).toBeGreaterThanOrEqual(300);
    const falseReports: string[] = [];
    for (const entry of accepted) {
      for (const finding of await directiveFindings(entry)) {
        falseReports.push(`${entry.file}:${finding.span.start.line + 1} ${finding.message}`);
      }
    }
    expect(falseReports).toEqual([]);

    const disagreements: string[] = [];
    let compared = 0;
    for (const entry of entries) {
      const located = COVERED.exec(entry.nginx_t);
      const unknown = UNKNOWN_SKIPPED.exec(entry.nginx_t);
      // Only where the unknown name is in the file itself: many are in an included file nginx read.
      const skipped = unknown && writesDirective(entry, unknown[1]!) ? unknown : null;
      if (!located && !skipped) continue;
      compared++;
      const findings = await directiveFindings(entry);
      if (located) {
        const first = findings[0];
        const agrees = first !== undefined && first.span.start.line + 1 === Number(located[2]) && sameVerdict(located[1]!, first);
        if (!agrees) disagreements.push(`${entry.file}: nginx "${located[1]}" line ${located[2]}; rule: ${first ? `${first.span.start.line + 1} ${first.message}` : 'nothing'}`);
      } else if (!findings.some((finding) => /unknown directive|is from|needs nginx|was removed|is an NGINX Plus directive/.test(finding.message))) {
        // nginx kept no line for these; any unknown-directive verdict agrees (nginx stops at the first of several).
        disagreements.push(`${entry.file}: nginx unknown directive "${skipped![1]}"; rule: ${findings.map((f) => f.message).join(' | ') || 'nothing'}`);
      }
    }
    const agreed = compared - disagreements.length;
    console.log(
      `directive rule agreement with nginx -t: ${agreed}/${compared} rejected corpus files (${((100 * agreed) / compared).toFixed(1)}%), ` +
        `0 findings on ${accepted.length} accepted files\n${disagreements.map((line) => `  disagrees: ${line}`).join('\n')}`,
    );
    expect(compared).toBeGreaterThanOrEqual(20);
    // The rule is silent by design on a config that loads a module the table does not know: any unknown name may be
    // that module's. And on a directive of an out-of-tree module the table has (VTS, pagespeed): the reference nginx
    // is Debian's, which never has those. Every other rejection must be agreed with.
    const unexplained = disagreements.filter((line) => !loadsUnknownModule(line.slice(0, line.indexOf(':'))) && !outOfTree(line));
    expect(unexplained).toEqual([]);
  }, 120_000);

  it('finds no directive fixAll inserted where nginx does not allow it, on every file that must parse cleanly', async () => {
    const clean = entries.filter(mustParseClean);
    const added: string[] = [];
    let changed = 0;
    // Line numbers move when a fix inserts lines, so findings are compared without them.
    const withoutNumbers = (finding: Finding) => finding.message.replace(/\d+/g, '#');
    for (const entry of clean) {
      const text = readFileSync(entry.absPath, 'utf8');
      const fixed = (await fixAll([{ path: entry.absPath, text }], { host: isolated, nginxVersion: '1.22.1' })).texts.get(entry.absPath);
      if (fixed === undefined || fixed === text) continue;
      changed++;
      const before = (await directiveFindings(entry, text)).map(withoutNumbers);
      for (const finding of await directiveFindings(entry, fixed)) {
        const at = before.indexOf(withoutNumbers(finding));
        if (at === -1) added.push(`${entry.file}:${finding.span.start.line + 1} ${finding.message}`);
        else before.splice(at, 1);
      }
    }
    expect(changed).toBeGreaterThanOrEqual(50);
    expect(added).toEqual([]);
  }, 300_000);
});

// The rules and their fixes against the real-world corpus.
// - Files real nginx accepted (MANIFEST nginx_t = ok) are copied into a fresh nginx prefix, fixed there with fixAll,
//   and the fixed copy must still pass real `nginx -t`: full configs (nginx_t_context = main) as they are, snippets
//   included at the context the manifest found (http, server or location). Only files nginx accepted without stubs
//   are tested (the stubs are users, /etc/hosts entries, certificates and files outside the config's directory, which
//   this test cannot create without touching the system); the environment of the manifest's runs is reproduced:
//   Debian's conf-directory files (mime.types, fastcgi_params, snippets/...) beside the copy, and the dynamic modules
//   Debian packages here loaded. The counts are pinned and every exclusion is named, so the set cannot silently shrink.
// - Every file that must parse cleanly is analyzed alone, and the findings per rule are printed as a table (before and
//   after fixAll); the main rules must find something, no rule may crash, and fixAll must be idempotent on every file
//   and never leave a syntax problem behind.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, INTERNAL_ERROR_RULE_ID } from '../server/src/engine/analyze.js';
import { fixAll } from '../server/src/engine/fix-all.js';
import type { FileHost, Finding } from '../server/src/util/types.js';
import { entries, mustParseClean, type CorpusEntry } from './corpus/manifest.js';
import type { NginxContext } from './support/expectations.js';
import { copyDebianConfFiles, makePrefix, nginxTestCorpusCopy, requireNginx } from './support/nginx.js';

/** Files nginx -t accepted without stubs that need something this machine does not have. */
const EXCLUDED: Record<string, string> = {
  'nginx/laradock__laradock__openresty__nginx.conf':
    'its temp paths are under /var/run/openresty, a directory of the OpenResty image that Debian does not have',
  'nginx/3scale__APIcast__examples__custom-config__echo.conf': 'needs the echo module (not installed here)',
  'nginx/3scale__APIcast__spec__fixtures__echo.conf': 'needs the echo module (not installed here)',
  'nginx/centminmod__centminmod__config__nginx__drop.conf': 'needs the headers-more module (not installed here)',
  'nginx/centminmod__centminmod__config__nginx__staticfiles.conf': 'needs the headers-more module (not installed here)',
  'nginx/trimstray__nginx-admins-handbook__lib__nginx__master___basic__main.conf': 'needs the headers-more module (not installed here)',
  'nginx/trimstray__nginx-admins-handbook__lib__nginx__master___basic__redirects-map.conf': 'needs the set-misc module (not installed here)',
};
// Recount when scripts/import-corpus.mjs re-imports the corpus (mustParseClean includes the 23 Jinja2 templates of
// test/corpus/jinja/, which that script does not import).
const EXPECTED = { accepted: 321, withoutStubs: 125, tested: 118, mustParseClean: 425 };
/** The dynamic modules of the manifest's nginx -t runs that Debian packages here (the corpus has Lua configs). */
const MODULES = ['http_lua'];
/** Rules the corpus is known to trip (MANIFEST hints: upstreams without keepalive, $http_connection, literal passes). */
const MAIN_RULES = ['upstream-keepalive', 'proxy-pass-no-upstream', 'connection-header-passthrough'];
const CONTEXTS: readonly string[] = ['main', 'http', 'server', 'location'];

const accepted = entries.filter((e) => e.nginx_t === 'ok' && CONTEXTS.includes(e.nginx_t_context));
const withoutStubs = accepted.filter((e) => e.nginx_t_stubs === '');
const tested = withoutStubs.filter((e) => !(e.file in EXCLUDED));
const clean = entries.filter(mustParseClean);

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };

interface FixedCopy {
  changed: string[];
  passes: number;
  remaining: Finding[];
  before: { ok: boolean; output: string };
  after: { ok: boolean; output: string };
}

/** Copies the file into a fresh nginx prefix, tests it, fixes it in place, and tests the fixed copy. */
async function fixCopy(entry: CorpusEntry): Promise<FixedCopy> {
  const prefix = makePrefix();
  try {
    copyDebianConfFiles(prefix.dir);
    const context = entry.nginx_t_context as NginxContext;
    const copy = path.join(prefix.dir, context === 'main' ? 'nginx.conf' : 'snippet.conf');
    const text = readFileSync(entry.absPath, 'utf8');
    writeFileSync(copy, text);
    const before = nginxTestCorpusCopy(copy, context, prefix, MODULES);
    // Read roots default to the copy's directory: includes of /etc/nginx/... are not followed, so only the copy changes.
    const result = await fixAll([{ path: copy, text }]);
    const changed: string[] = [];
    for (const [file, fixed] of result.texts) {
      const absolute = path.resolve(file);
      if (!absolute.startsWith(`${prefix.dir}${path.sep}`)) throw new Error(`fixAll changed ${file}, outside the copy`);
      writeFileSync(absolute, fixed);
      changed.push(path.relative(prefix.dir, absolute));
    }
    const after = nginxTestCorpusCopy(copy, context, prefix, MODULES);
    return { changed, passes: result.passes, remaining: result.remaining, before, after };
  } finally {
    prefix.remove();
  }
}

function summarize(findings: readonly Finding[]): string {
  const counts = new Map<string, number>();
  for (const finding of findings) counts.set(finding.ruleId, (counts.get(finding.ruleId) ?? 0) + 1);
  return [...counts].map(([id, n]) => `${id} ${n}`).join(', ') || 'nothing';
}

function countByRule(findings: readonly Finding[], into: Map<string, { findings: number; files: Set<string> }>): void {
  for (const finding of findings) {
    const row = into.get(finding.ruleId) ?? { findings: 0, files: new Set<string>() };
    row.findings++;
    row.files.add(finding.file);
    into.set(finding.ruleId, row);
  }
}

function table(before: Map<string, { findings: number; files: Set<string> }>, after: Map<string, { findings: number; files: Set<string> }>): string {
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  const width = Math.max(4, ...ids.map((id) => id.length));
  const lines = [`${'rule'.padEnd(width)}  findings  files  after fixAll`, `${'-'.repeat(width)}  --------  -----  ------------`];
  for (const id of ids) {
    const b = before.get(id);
    lines.push(`${id.padEnd(width)}  ${String(b?.findings ?? 0).padStart(8)}  ${String(b?.files.size ?? 0).padStart(5)}  ${String(after.get(id)?.findings ?? 0).padStart(12)}`);
  }
  return lines.join('\n');
}

describe('corpus files nginx accepted: fixed copies pass nginx -t', () => {
  it(`tests ${EXPECTED.tested} of the ${EXPECTED.accepted} files nginx accepted (${EXPECTED.withoutStubs} without stubs)`, () => {
    requireNginx();
    expect(accepted.length).toBe(EXPECTED.accepted);
    expect(withoutStubs.length).toBe(EXPECTED.withoutStubs);
    expect(Object.keys(EXCLUDED).filter((file) => !withoutStubs.some((e) => e.file === file))).toEqual([]);
    expect(tested.length).toBe(EXPECTED.tested);
  });

  it.each(tested.map((e) => [`${e.file} (${e.nginx_t_context})`, e] as const))('%s', async (_name, entry) => {
    const copy = await fixCopy(entry);
    const what = copy.changed.length > 0 ? `fixed in ${copy.passes} pass(es)` : 'nothing to fix';
    console.log(`${entry.file}: ${what}; left: ${summarize(copy.remaining)}`);
    // The environment must reproduce the manifest's verdict, or the check after the fix proves nothing.
    expect(copy.before.ok, `the unfixed copy fails nginx -t here:\n${copy.before.output}`).toBe(true);
    expect(copy.remaining.filter((f) => f.ruleId === 'syntax')).toEqual([]);
    expect(copy.after.ok, `nginx -t rejects the fixed copy (changed: ${copy.changed.join(', ')}):\n${copy.after.output}`).toBe(true);
  });
});

describe('corpus: findings per rule', () => {
  it(`analyzes and fixes every file that must parse cleanly (${EXPECTED.mustParseClean} files)`, { timeout: 600_000 }, async () => {
    expect(clean.length).toBe(EXPECTED.mustParseClean);
    const before = new Map<string, { findings: number; files: Set<string> }>();
    const after = new Map<string, { findings: number; files: Set<string> }>();
    const problems: string[] = [];
    for (const entry of clean) {
      const docs = [{ path: entry.absPath, text: readFileSync(entry.absPath, 'utf8') }];
      countByRule(await analyze(docs, { host: isolated }), before);
      const fixed = await fixAll(docs, { host: isolated });
      countByRule(fixed.remaining, after);
      if (fixed.remaining.some((f) => f.ruleId === 'syntax')) problems.push(`${entry.file}: syntax finding after fixAll`);
      const fixedText = fixed.texts.get(entry.absPath);
      if (fixedText === undefined) continue;
      const again = await fixAll([{ path: entry.absPath, text: fixedText }], { host: isolated });
      if (again.texts.size > 0) problems.push(`${entry.file}: fixAll is not idempotent (a second run changes it again)`);
    }
    console.log(`Findings per rule in ${clean.length} corpus files (each analyzed alone):\n${table(before, after)}`);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(before.get(INTERNAL_ERROR_RULE_ID)?.findings ?? 0, 'a rule crashed on the corpus').toBe(0);
    expect(MAIN_RULES.filter((id) => (before.get(id)?.findings ?? 0) === 0), 'main rules that found nothing').toEqual([]);
  });
});

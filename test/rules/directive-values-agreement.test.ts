// The value checks against real nginx -t (Debian's 1.22.1, lua and stream loaded) on mutations of real configs
// (issue 28): corpus files nginx accepts as they are (http, server and location snippets, no stubs, no templates)
// get one value changed (support/value-mutations.ts), nginx -t reads the mutated file at the manifest's context, and
// the first error's line and kind are compared with the first `directive`/`syntax` finding for nginx 1.22.1 (none for
// none). The agreement by kind is printed with every disagreement, and held to the floors below (README.md,
// "How it is checked", reports them).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { rules } from '../../server/src/rules/registry.js';
import type { FileHost, SeveritySetting } from '../../server/src/util/types.js';
import { entries } from '../corpus/manifest.js';
import type { NginxContext } from '../support/expectations.js';
import { nginxTest, wrapInclude } from '../support/nginx.js';
import { fileMutations, type Mutation, type MutationKind } from '../support/value-mutations.js';

/** Mutations per kind, and per kind from one file (so a kind spreads over several files). */
const PER_KIND = 16;
const PER_FILE = 3;

/** Agreements per kind the checks may not drop below (recount when the corpus, nginx or the checks change). */
const FLOOR: Record<MutationKind, number> = {
  size: 13, time: 16, number: 9, flag: 16, enum: 16, case: 16, 'listen parameter': 16, 'listen port': 16,
  'upstream server': 16, keepalive: 3, return: 16, 'rewrite flag': 2, duplicate: 16, repeatable: 16,
};

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };
const checked: Record<string, SeveritySetting> = Object.fromEntries(
  rules.map((rule) => [rule.meta.id, rule.meta.id === 'directive' || rule.meta.id === 'syntax' ? 'error' : 'off']),
);

type Verdict = { kind: string; line?: number };

/** nginx's first message, by kind. */
function nginxKind(message: string): string {
  if (/directive invalid (value|number)|^invalid value "/.test(message)) return 'value';
  if (message.startsWith('invalid parameter')) return 'parameter';
  if (message.includes('is duplicate')) return 'duplicate';
  if (message.startsWith('invalid number of arguments')) return 'arguments';
  if (message.startsWith('invalid return code')) return 'return';
  if (/^(invalid port|host not found) in /.test(message)) return 'listen address';
  if (/^invalid (backlog|rcvbuf|sndbuf|fastopen) "/.test(message)) return 'listen value';
  return `other: ${message}`;
}

/** Our first finding's headline, by the same kinds (the headlines keep nginx's words first). */
function ourKind(message: string): string {
  if (/directive invalid (value|number)|^invalid value "/.test(message)) return 'value';
  if (message.startsWith('invalid parameter')) return 'parameter';
  if (message.includes('is duplicate')) return 'duplicate';
  if (message.startsWith('invalid number of arguments')) return 'arguments';
  if (message.startsWith('invalid return code')) return 'return';
  if (/^(invalid port|host not found) in /.test(message)) return 'listen address';
  if (/^invalid (backlog|rcvbuf|sndbuf|fastopen) "/.test(message)) return 'listen value';
  return `other: ${message}`;
}

interface Candidate {
  file: string;
  context: NginxContext;
  text: string;
}

function nginxVerdict(dir: string, candidate: Candidate, text: string): Verdict {
  const file = path.join(dir, path.basename(candidate.file));
  writeFileSync(file, text);
  const result = nginxTest((prefix) => wrapInclude(file, candidate.context, prefix, ['http_lua', 'stream']));
  if (result.ok) return { kind: 'ok' };
  const first = result.errors[0];
  if (!first || first.file !== file) return { kind: `other: ${first?.message ?? result.output}` };
  return { kind: nginxKind(first.message), line: first.line };
}

async function ourVerdict(candidate: Candidate, text: string): Promise<Verdict> {
  const findings = await analyze([{ path: candidate.file, text }], { host: isolated, nginxVersion: '1.22.1', rules: checked });
  const first = [...findings].sort((a, b) => a.span.startOffset - b.span.startOffset)[0];
  return first ? { kind: ourKind(first.message), line: first.span.start.line + 1 } : { kind: 'ok' };
}

async function candidates(dir: string): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const entry of entries) {
    if (entry.nginx_t !== 'ok' || entry.kind !== 'nginx' || entry.templating !== 'none' || entry.nginx_t_stubs !== '') continue;
    if (!['http', 'server', 'location'].includes(entry.nginx_t_context)) continue;
    const candidate = { file: entry.absPath, context: entry.nginx_t_context as NginxContext, text: readFileSync(entry.absPath, 'utf8') };
    // As it is, with the modules loaded here, in a directory of its own (no include finds what it found then).
    if (nginxVerdict(dir, candidate, candidate.text).kind === 'ok') out.push(candidate);
  }
  return out;
}

/** Up to PER_KIND mutations per kind, PER_FILE of a kind from one file, in corpus order. */
async function pick(files: Candidate[]): Promise<{ candidate: Candidate; mutation: Mutation }[]> {
  const parser = await loadNginxParser();
  const chosen: { candidate: Candidate; mutation: Mutation }[] = [];
  const count = new Map<MutationKind, number>();
  for (const candidate of files) {
    const here = new Map<MutationKind, number>();
    for (const mutation of fileMutations(candidate.text, parseFile(parser, candidate.file, candidate.text).directives, candidate.context)) {
      if ((here.get(mutation.kind) ?? 0) >= PER_FILE || (count.get(mutation.kind) ?? 0) >= PER_KIND) continue;
      here.set(mutation.kind, (here.get(mutation.kind) ?? 0) + 1);
      count.set(mutation.kind, (count.get(mutation.kind) ?? 0) + 1);
      chosen.push({ candidate, mutation });
    }
  }
  return chosen;
}

describe('value checks against nginx -t on mutated corpus files', () => {
  it('agree with nginx on the first error, its line and its kind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nk-mutations-'));
    try {
      const chosen = await pick(await candidates(dir));
      const tally = new Map<MutationKind, { total: number; agree: number }>();
      const disagreements: string[] = [];
      for (const { candidate, mutation } of chosen) {
        const nginx = nginxVerdict(dir, candidate, mutation.text);
        const ours = await ourVerdict(candidate, mutation.text);
        const agree = nginx.kind === ours.kind && nginx.line === ours.line;
        const row = tally.get(mutation.kind) ?? { total: 0, agree: 0 };
        row.total++;
        if (agree) row.agree++;
        tally.set(mutation.kind, row);
        if (!agree) {
          const name = path.basename(candidate.file);
          disagreements.push(`  ${mutation.kind}: ${name} (${mutation.what})\n    nginx ${nginx.line ?? '-'}: ${nginx.kind}\n    ours  ${ours.line ?? '-'}: ${ours.kind}`);
        }
      }
      const rows = [...tally].map(([kind, { total, agree }]) => `| ${kind} | ${agree}/${total} |`);
      const all = [...tally.values()].reduce((sum, row) => ({ total: sum.total + row.total, agree: sum.agree + row.agree }), { total: 0, agree: 0 });
      const report = `${rows.join('\n')}\n| all | ${all.agree}/${all.total} |${disagreements.length ? `\ndisagreements:\n${disagreements.join('\n')}` : ''}`;
      console.log(`value-check agreement with nginx -t by kind:\n${report}`);
      for (const [kind, floor] of Object.entries(FLOOR) as [MutationKind, number][]) {
        expect(tally.get(kind)?.agree ?? 0, `${kind}\n${report}`).toBeGreaterThanOrEqual(floor);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

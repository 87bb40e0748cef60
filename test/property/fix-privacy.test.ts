// fixAll without unsafe fixes never tells a stranger more (issue 25 item 1), over fixture and corpus files whose pass
// targets and upstream servers are sometimes swapped for third parties' hosts, and which sometimes set X-Real-IP and
// X-Forwarded-For at server level (the headers a copy-down would send on):
//   1. no third-party origin (a pass's literal host, or a server host of the upstream{} it names) receives a header
//      carrying the client's address or identity (X-Real-IP, X-Forwarded-For, Forwarded, ...) that it did not receive
//      before: per pass, the effective proxy_set_header set (the analysis' own lookupDirective and
//      effectiveHeaderSet) after the fixes against the set before;
//   2. every fix applied was safe when first offered: each finding of the original analysis whose fix is unsafe is
//      still there after fixAll, in the same block (a safe fix may insert a statement before it, where its rule
//      then reports: proxy-set-header-inheritance reports at a block's first proxy_set_header).
// Own backends are not checked for (1): copying the server's headers down to them is what the safe fix is for. Nor
// are other headers: a safe fix may send a stranger what the operator set for the server (X-Forwarded-Proto copied
// down, docs/rules/proxy-set-header-inheritance.md) or the client's own Upgrade (connection-upgrade-literal); what
// makes a fix unsafe is telling a stranger who the users are.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lookupDirective } from '../../server/src/analysis/effective-lookup.js';
import { passes, type Pass } from '../../server/src/analysis/passes.js';
import { effectiveHeaderSet } from '../../server/src/analysis/proxy-state.js';
import { CLIENT_IDENTITY_HEADERS, serverHost, thirdPartyName } from '../../server/src/analysis/third-party.js';
import { upstreams } from '../../server/src/analysis/upstreams.js';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import { isUnsafeFix } from '../../server/src/engine/fix-safety.js';
import type { Workspace } from '../../server/src/model/workspace.js';
import type { Finding, SourceDocument } from '../../server/src/util/types.js';
import { checkProperty, FUZZING, gentleMutation, memoryHost, mutate, seedFiles, VIRTUAL_DIR, type Mutation, type SeedFile } from './support.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** `npm test`: files with server-level headers and locations setting their own; fuzzing adds every seed file. */
const QUICK = [
  'test/fixtures/proxy-set-header-inheritance/invalid-third-party-rewritten.conf',
  'test/fixtures/proxy-set-header-inheritance/invalid-third-party-client-ip.conf',
  'test/fixtures/proxy-set-header-inheritance/invalid-drops-connection.conf',
  'test/fixtures/proxy-pass-no-upstream/invalid-inherited-set-copied.conf',
  'test/fixtures/connection-upgrade-literal/invalid-no-upgrade-header.conf',
  'test/corpus/nginx/NginxProxyManager__nginx-proxy-manager__docker__rootfs__etc__nginx__conf.d__dev.conf',
  'test/corpus/nginx/haiwen__seafile-docker__services__seafile.nginx.conf',
  'test/corpus/nginx/taigaio__taiga-docker__taiga-gateway__taiga.conf',
];
const seeds: SeedFile[] = [
  ...QUICK.map((name) => ({ name, text: readFileSync(path.join(repoRoot, name), 'utf8') })),
  ...(FUZZING ? seedFiles().filter((seed) => !QUICK.includes(seed.name)) : []),
];
const STRANGERS = ['api.payments.example', 'fonts.gstatic.com', 'my-bucket.s3.amazonaws.com'];
const IDENTITY = ' proxy_set_header X-Real-IP $remote_addr; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;';

interface Case {
  seed: number;
  change: Mutation;
  /** Which pass targets / upstream servers (by index, modulo their count) get a stranger's host. */
  swaps: number[];
  stranger: string;
  /** Set the client-identity headers at the top of every server block. */
  identity: boolean;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  seed: fc.nat({ max: seeds.length - 1 }),
  change: gentleMutation,
  swaps: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
  stranger: fc.constantFrom(...STRANGERS),
  identity: fc.boolean(),
});

/** Text replacements (offset range -> new text) applied back to front. */
function replaced(text: string, edits: { start: number; end: number; text: string }[]): string {
  let result = text;
  const seen = new Set<number>();
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    if (seen.has(edit.start)) continue;
    seen.add(edit.start);
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  }
  return result;
}

/** The case's document: the seed mutated, then its strangers and identity headers written in through the model. */
async function documentOf(input: Case): Promise<SourceDocument> {
  const seed = seeds[input.seed]!;
  const doc = { path: path.join(VIRTUAL_DIR, path.basename(seed.name)), text: mutate(seed.text, input.change) };
  const { workspace } = await analyzeWorkspace([doc], { host: memoryHost([doc]) });
  const own = (file: { path: string }) => path.resolve(file.path) === path.resolve(doc.path);
  const targets: { start: number; end: number; text: string }[] = [];
  for (const pass of passes(workspace)) {
    const argument = pass.directive.args[0];
    const target = pass.target;
    if (pass.name !== 'proxy_pass' || !argument || !target?.host || !target.scheme || target.templated || target.hasVariables) continue;
    if (!own(pass.directive.file)) continue;
    const port = target.port === undefined ? '' : `:${target.port}`;
    targets.push({ start: argument.span.startOffset, end: argument.span.endOffset, text: `${target.scheme}://${input.stranger}${port}${target.uri ?? ''}` });
  }
  for (const upstream of upstreams(workspace)) {
    for (const server of upstream.servers) {
      const address = server.args[0];
      const host = serverHost(server);
      if (!address || host === undefined || !own(server.file)) continue;
      targets.push({ start: address.span.startOffset, end: address.span.endOffset, text: input.stranger + address.value.slice(host.length) });
    }
  }
  const edits = targets.length === 0 ? [] : input.swaps.map((swap) => targets[swap % targets.length]!);
  if (input.identity) {
    for (const file of workspace.files.filter(own)) {
      const blocks = (list: typeof file.directives): typeof file.directives =>
        list.flatMap((directive) => [directive, ...blocks(directive.children)]);
      for (const server of blocks(file.directives)) {
        if (server.name !== 'server' || !server.blockSpan || server.parent?.name !== 'http') continue;
        edits.push({ start: server.blockSpan.startOffset + 1, end: server.blockSpan.startOffset + 1, text: IDENTITY });
      }
    }
  }
  return { ...doc, text: replaced(doc.text, edits) };
}

/**
 * The headers a pass sets for its origins (lower-cased names), or undefined when the set is not knowable statically.
 * nginx's own (Host, Connection) are left out: none of them identifies the client.
 */
function sentHeaders(workspace: Workspace, pass: Pass): Set<string> | undefined {
  const lookup = lookupDirective(workspace, pass.scope, 'proxy_set_header');
  if (lookup.kind === 'unknown' || (lookup.kind === 'found' && (lookup.conditional || lookup.proxyParams))) return undefined;
  const sent = new Set<string>();
  for (const [name, header] of effectiveHeaderSet(lookup.kind === 'found' ? lookup : undefined)) {
    // nginx sends each definition whose value is not empty (`""` removes the header).
    if (header.directives.some((directive) => directive.args[1]?.value !== '')) sent.add(name);
  }
  return sent;
}

/** The third parties' hosts a pass reaches: its literal host, or its upstream{}'s server hosts. */
function strangersOf(pass: Pass): string[] {
  const hosts =
    pass.resolution.kind === 'upstream'
      ? pass.resolution.upstreams.flatMap((upstream) => upstream.servers.map(serverHost))
      : [pass.target?.hasVariables || pass.target?.templated ? undefined : pass.target?.host];
  const names = hosts.map((host) => (host === undefined ? undefined : thirdPartyName(host)));
  return names.filter((name): name is string => name !== undefined);
}

const proxyPasses = (workspace: Workspace) => passes(workspace).filter((pass) => pass.name === 'proxy_pass');

/**
 * A finding's identity across the fixes: its rule, file and innermost block, that block named by the path of blocks
 * to it (name, arguments, and which of its like-named siblings it is), which the fixes' edits leave alone.
 */
function blockOf(finding: Finding, workspace: Workspace): string {
  const file = workspace.files.find((candidate) => path.resolve(candidate.path) === path.resolve(finding.file));
  const names: string[] = [];
  let level = file?.directives ?? [];
  for (;;) {
    const block = level.find((d) => d.blockSpan && d.blockSpan.startOffset < finding.span.startOffset && d.blockSpan.endOffset > finding.span.startOffset);
    if (!block) break;
    const label = `${block.name} ${block.args.map((arg) => arg.value).join(' ')}`;
    const like = level.filter((d) => d.blockSpan && `${d.name} ${d.args.map((arg) => arg.value).join(' ')}` === label);
    names.push(`${label}#${like.indexOf(block)}`);
    level = block.children;
  }
  return `${finding.ruleId} ${path.resolve(finding.file)} ${names.join(' > ')}`;
}

describe('fixAll without unsafe fixes', () => {
  it('sends no third party a header it did not get before, and applies only fixes safe when first offered', async () => {
    await checkProperty(
      'no header leak to a third party, no unsafe fix applied',
      fc.asyncProperty(caseArbitrary, async (input) => {
        const doc = await documentOf(input);
        const host = memoryHost([doc]);
        const before = await analyzeWorkspace([doc], { host });
        const result = await fixAll([doc], { host });
        const text = result.texts.get(doc.path) ?? doc.text;
        const fixed = { ...doc, text };
        const after = await analyzeWorkspace([fixed], { host: memoryHost([fixed]) });

        // 1. The fixes never add or remove a proxy_pass, and keep their order: pass i is pass i.
        const beforePasses = proxyPasses(before.workspace);
        const afterPasses = proxyPasses(after.workspace);
        expect(afterPasses.length).toBe(beforePasses.length);
        afterPasses.forEach((pass, index) => {
          const strangers = strangersOf(pass);
          if (strangers.length === 0) return;
          const was = sentHeaders(before.workspace, beforePasses[index]!);
          const now = sentHeaders(after.workspace, pass);
          if (was === undefined || now === undefined) return;
          const added = [...now].filter((name) => CLIENT_IDENTITY_HEADERS.has(name) && !was.has(name));
          expect({ strangers, added }).toEqual({ strangers, added: [] });
        });

        // 2. Every unsafe fix offered at the start is still withheld: its finding stays, at the same statement.
        const withheld = before.findings.filter((finding) => path.resolve(finding.file) === path.resolve(doc.path) && isUnsafeFix(finding));
        const left = new Map<string, number>();
        for (const finding of result.remaining) left.set(blockOf(finding, after.workspace), (left.get(blockOf(finding, after.workspace)) ?? 0) + 1);
        for (const finding of withheld) {
          const key = blockOf(finding, before.workspace);
          expect(left.get(key) ?? 0, key).toBeGreaterThan(0);
          left.set(key, left.get(key)! - 1);
        }
      }),
      30,
    );
  });
});

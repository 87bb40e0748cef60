// Dokku's own template, the case this project exists for. Two versions from the corpus:
// - current: `keepalive` only under `{{ if $.PROXY_KEEPALIVE }}` (the opt-in since v0.37.4), so upstream-keepalive is
//   information at the upstream line; `proxy_set_header Connection $http_connection;` is a passthrough finding;
// - pre-opt-in: the newest tagged version without PROXY_KEEPALIVE: upstream-keepalive is a warning there.
// Exactly those findings, at lines found by searching the template text. Then fixAll: the fixed template parses
// cleanly, has no finding of the fixed rules (nor any error or warning), renders with Go's text/template for real
// Dokku variables, passes real nginx -t (two apps in one http block, as Dokku includes them), and the rendered config
// really keeps connections: keepalive in every upstream (the app's proxy-keepalive setting honoured where the template
// had it), and no keepalive rule finds anything in it.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../server/src/engine/analyze.js';
import { fixAll } from '../server/src/engine/fix-all.js';
import type { FileHost, Finding } from '../server/src/util/types.js';
import { CORPUS_DIR } from './corpus/manifest.js';
import { DokkuHost, DOKKU_VARIANTS, describeFailures, nginxTestDokkuTemplate } from './support/dokku.js';

const SIGIL_DIR = path.join(CORPUS_DIR, 'sigil');
const TEMPLATE = /^dokku__dokku__(?:@(v[\d.]+)__)?plugins__nginx-vhosts__templates__nginx\.conf\.sigil$/;
const OPT_IN = 'PROXY_KEEPALIVE';
/** Rules that are not about connection reuse: what is left are the nine keepalive rules. */
const GENERAL_RULES = new Set(['syntax', 'include', 'unused-suppression']);

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };

function versionKey(tag: string): number[] {
  return tag.slice(1).split('.').map(Number);
}

function compareTags(a: string, b: string): number {
  const [x, y] = [versionKey(a), versionKey(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** Tagged versions of the template in the corpus, oldest first. */
const tagged = readdirSync(SIGIL_DIR)
  .map((file) => ({ file, tag: TEMPLATE.exec(file)?.[1] }))
  .filter((entry): entry is { file: string; tag: string } => entry.tag !== undefined)
  .sort((a, b) => compareTags(a.tag, b.tag));

const read = (file: string): string => readFileSync(path.join(SIGIL_DIR, file), 'utf8');
const preOptIn = [...tagged].reverse().find((entry) => !read(entry.file).includes(OPT_IN))!;

interface Version {
  label: string;
  file: string;
  /** upstream-keepalive's severity: information while the template has the opt-in, a warning without it. */
  keepaliveSeverity: 'info' | 'warning';
}

const versions: Version[] = [
  { label: 'current', file: 'dokku__dokku__plugins__nginx-vhosts__templates__nginx.conf.sigil', keepaliveSeverity: 'info' },
  { label: `${preOptIn.tag} (before the opt-in)`, file: preOptIn.file, keepaliveSeverity: 'warning' },
];

/** 1-based numbers of the lines matching `pattern`. */
function linesMatching(text: string, pattern: RegExp): number[] {
  return text.split('\n').flatMap((line, index) => (pattern.test(line) ? [index + 1] : []));
}

function summary(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.span.start.line + 1} ${f.ruleId} ${f.severity}`).sort();
}

const dokku = new DokkuHost();
afterAll(() => dokku.remove());

describe('Dokku template versions in the corpus', () => {
  it(`the newest tag without the ${OPT_IN} opt-in is v0.37.1, and the current template has it`, () => {
    expect(preOptIn.tag).toBe('v0.37.1');
    expect(read(versions[0]!.file)).toContain(OPT_IN);
    // The opt-in came with the next tag in the corpus: nothing newer lacks it.
    const next = tagged[tagged.findIndex((entry) => entry.tag === preOptIn.tag) + 1];
    expect(next && read(next.file).includes(OPT_IN)).toBe(true);
  });
});

describe.each(versions)('Dokku nginx.conf.sigil $label', ({ file, keepaliveSeverity }) => {
  const absPath = path.join(SIGIL_DIR, file);
  const text = read(file);
  const upstreamLines = linesMatching(text, /^\s*upstream\s/);
  const passthroughLines = linesMatching(text, /^\s*proxy_set_header\s+Connection\s+\$http_connection\s*;/i);
  // `include {{ $.DOKKU_ROOT }}/{{ $.APP }}/nginx.conf.d/*.conf;`: the app's own locations, which nobody can check here.
  const templatedIncludeLines = linesMatching(text, /^\s*include\s+\{\{/);

  it('the template reads as expected (an upstream block, Connection passthrough)', () => {
    expect(upstreamLines.length).toBeGreaterThan(0);
    expect(passthroughLines.length).toBeGreaterThan(0);
  });

  it('gets exactly upstream-keepalive at the upstream line, connection-header-passthrough at each $http_connection line and a note at each templated include', async () => {
    const findings = await analyze([{ path: absPath, text }], { host: isolated });
    const expected = [
      ...upstreamLines.map((line) => `${line} upstream-keepalive ${keepaliveSeverity}`),
      ...passthroughLines.map((line) => `${line} connection-header-passthrough warning`),
      ...templatedIncludeLines.map((line) => `${line} include info`),
    ].sort();
    expect(summary(findings)).toEqual(expected);
  });

  it('renders and passes nginx -t as it is', () => {
    const failures = describeFailures(nginxTestDokkuTemplate(dokku, text, file));
    expect(failures, failures.join('\n')).toEqual([]);
  });

  describe('fixed with fixAll', () => {
    let fixedText: Promise<string> | undefined;
    const fixed = (): Promise<string> =>
      (fixedText ??= fixAll([{ path: absPath, text }], { host: isolated }).then((result) => {
        const out = result.texts.get(absPath);
        if (out === undefined) throw new Error('fixAll changed nothing');
        return out;
      }));

    it('parses cleanly, with no finding of the fixed rules and no error or warning left', async () => {
      const findings = await analyze([{ path: absPath, text: await fixed() }], { host: isolated });
      const left = findings.filter(
        (f) => f.ruleId === 'syntax' || f.ruleId === 'upstream-keepalive' || f.ruleId === 'connection-header-passthrough' || f.severity !== 'info',
      );
      expect(summary(left)).toEqual([]);
    });

    it('renders and passes nginx -t', async () => {
      const failures = describeFailures(nginxTestDokkuTemplate(dokku, await fixed(), file));
      expect(failures, failures.join('\n')).toEqual([]);
    });

    it.each(Object.keys(DOKKU_VARIANTS))('rendered (%s), keeps upstream connections', async (variant) => {
      const overrides = DOKKU_VARIANTS[variant]!;
      const rendered = dokku.renderApps(await fixed(), overrides, undefined, file).join('\n');
      const blocks = [...rendered.matchAll(/^upstream\s+\S+\s*\{([^}]*)\}/gm)].map((m) => m[1]!);
      expect(blocks.length).toBeGreaterThan(0);
      // The app's own setting wins where the template had the opt-in; otherwise the fix's default (16).
      const keepalive = text.includes(OPT_IN) && overrides.PROXY_KEEPALIVE ? overrides.PROXY_KEEPALIVE : '16';
      for (const block of blocks) expect(block).toMatch(new RegExp(`^\\s*keepalive ${keepalive};`, 'm'));
      const findings = await analyze([{ path: path.join(dokku.dir, 'rendered.conf'), text: rendered }], { host: isolated });
      expect(summary(findings.filter((f) => !GENERAL_RULES.has(f.ruleId)))).toEqual([]);
    });
  });
});

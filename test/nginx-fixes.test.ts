// Real nginx on what the fixes produce: every fix golden under test/fixtures passes `nginx -t` (Debian's 1.22), and so
// does every valid- fixture of the rules (the syntax fixtures have their own cross-check in nginx-syntax.test.ts).
// Where a file goes: its `context=` option, else the context the tool infers (support/nginx-context.ts). A `.d` case is
// copied to a temporary directory with its goldens in place of the inputs and tested from its nginx.conf. A `.sigil`
// is rendered first (support/render-sigil.ts, Go's text/template with sigil's functions) with a Dokku host's
// variables, for each variant in support/dokku.ts, and tested inside an http block. A Jinja2 `.j2` is rendered first
// with Python's jinja2 (support/render-jinja.ts: no variables, so its fixtures render with literals and defaults).
// An envsubst `.template` is rendered with the real envsubst and the variables its `envsubst=NAME=value` options give
// (support/render-envsubst.ts), as the Docker image does at container start.
// The examples are checked here too, before and after fixAll (the Dokku corpus templates: dokku.test.ts).
//
// A fixture whose nginx-version is newer than this nginx may use syntax of that later release (`proxy_http_version 2`
// from 1.29.4, `keepalive 16 local` from 1.29.7), which this nginx rejects. Such a case is not exempted wholesale:
// the syntax is found by the `directive` rule (its findings at this nginx's version that the fixture's own target
// does not have), and then nginx -t here must fail on the first of those lines, and only there is the answer
// "newer syntax" accepted. A newer-version fixture using no newer syntax is tested like any other.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { analyze } from '../server/src/engine/analyze.js';
import { fixAll } from '../server/src/engine/fix-all.js';
import { DokkuHost, DOKKU_APPS, describeFailures, nginxTestDokkuTemplate } from './support/dokku.js';
import { parseFixture, type FixtureOptions } from './support/expectations.js';
import { FIXTURES_DIR, collectCases, expectedFixedTexts, fixtureHost, type FixtureCase } from './support/fixture-cases.js';
import { nginxContextOf } from './support/nginx-context.js';
import { renderEnvsubst } from './support/render-envsubst.js';
import { renderJinja } from './support/render-jinja.js';
import { makePrefix, NGINX_BIN, nginxTestFile, requireNginx, wrapInclude } from './support/nginx.js';

const root = path.dirname(fileURLToPath(import.meta.url));
const examples = path.join(root, '..', 'examples');
const dokku = new DokkuHost();
afterAll(() => dokku.remove());

const cases = collectCases();
// The syntax fixtures are nginx-syntax.test.ts's business (its invalid- ones are not nginx at all).
const ruleCases = cases.filter((fixture) => !fixture.name.startsWith('syntax/'));
const goldenCases = ruleCases.filter((fixture) => fixture.goldens.size > 0);
const validCases = ruleCases.filter((fixture) => path.basename(fixture.name).startsWith('valid-'));

function optionsOf(file: string, text: string): FixtureOptions {
  return parseFixture(text, path.relative(FIXTURES_DIR, file)).options;
}

/**
 * `nginx -t` on `main` (already written, with the files it includes, in its directory) at its context. The wrapper
 * config sits beside it, so nginx resolves relative includes against that directory; a whole config (events {} at
 * the top) is tested as it is.
 */
async function nginxTestMainFile(main: string, text: string, options: FixtureOptions): Promise<string[]> {
  const context = await nginxContextOf(main, text, options.context);
  const whole = context === 'main' && /^\s*events\s*\{/m.test(text);
  const prefix = makePrefix();
  try {
    const conf = whole ? main : path.join(path.dirname(main), 'nk-wrapper.conf');
    if (!whole) writeFileSync(conf, wrapInclude(main, context, prefix, options.modules ?? []));
    const result = nginxTestFile(conf, prefix);
    return result.ok ? [] : [`${path.basename(main)} at ${context} context: ${result.output.trim()}`];
  } finally {
    prefix.remove();
  }
}

/** Writes `texts` (input path -> text) into a temporary copy of the case, and tests it from its main file. */
async function nginxTestCase(fixture: FixtureCase, texts: Map<string, string>): Promise<string[]> {
  let mainInput = fixture.files[0]!;
  const caseDir = fixture.name.endsWith('/') ? path.join(FIXTURES_DIR, fixture.name) : path.dirname(mainInput);
  if (mainInput.endsWith('.j2')) {
    if (texts.size > 1) return [`${fixture.name}: a Jinja2 template with other files cannot be rendered by this test`];
    const rendered = renderJinja(texts.get(mainInput)!);
    mainInput = mainInput.slice(0, -'.j2'.length);
    texts = new Map([[mainInput, rendered]]);
  }
  if (mainInput.endsWith('.template')) {
    if (texts.size > 1) return [`${fixture.name}: an envsubst template with other files cannot be rendered by this test`];
    const template = texts.get(mainInput)!;
    const rendered = renderEnvsubst(template, optionsOf(mainInput, template).envsubst ?? {});
    mainInput = mainInput.slice(0, -'.template'.length);
    texts = new Map([[mainInput, rendered]]);
  }
  const mainText = texts.get(mainInput)!;
  const options = optionsOf(mainInput, mainText);
  if (mainInput.endsWith('.sigil')) {
    if (texts.size > 1) return [`${fixture.name}: a sigil with other files cannot be rendered by this test`];
    return describeFailures(nginxTestDokkuTemplate(dokku, mainText, path.basename(mainInput), DOKKU_APPS.slice(0, 1)));
  }
  const copy = mkdtempSync(path.join(tmpdir(), 'nk-fixture-'));
  try {
    for (const [file, text] of texts) {
      const target = path.join(copy, path.relative(caseDir, file));
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
    return await nginxTestMainFile(path.join(copy, path.relative(caseDir, mainInput)), mainText, options);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** This nginx's version, from `nginx -v` (`nginx version: nginx/1.22.1`). */
const localVersion = (() => {
  const result = spawnSync(NGINX_BIN, ['-v'], { encoding: 'utf8' });
  const version = /nginx\/(\d+\.\d+\.\d+)/.exec(`${result.stderr}${result.stdout}`)?.[1];
  if (!version) throw new Error(`cannot read the version of ${NGINX_BIN}: ${result.stderr}`);
  return version;
})();

const newerThanLocal = (version: string): boolean => {
  const [a, b] = [version, localVersion].map((text) => text.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (a![i] !== b![i]) return a![i]! > b![i]!;
  return false;
};

/**
 * The lines (file basename:line) where `texts` uses syntax of the fixture's newer nginx that this nginx rejects: the
 * directive rule's findings at this nginx's version that it does not report at the fixture's own. Empty for a
 * fixture of this nginx or an older one, and for templates (rendering moves their lines).
 */
async function newerSyntaxLines(fixture: FixtureCase, texts: Map<string, string>): Promise<string[]> {
  const main = fixture.files[0]!;
  const target = optionsOf(main, texts.get(main)!).nginxVersion;
  if (!target || !newerThanLocal(target) || [...texts.keys()].some((file) => /\.(sigil|j2|tmpl)$/.test(file))) return [];
  const docs = [...texts].map(([file, text]) => ({ path: file, text }));
  const lines = async (nginxVersion: string) =>
    (await analyze(docs, { nginxVersion, host: fixtureHost() }))
      .filter((finding) => finding.ruleId === 'directive')
      .map((finding) => `${path.basename(finding.file)}:${finding.span.start.line + 1}`);
  const atTarget = new Set(await lines(target));
  return (await lines(localVersion)).filter((line) => !atTarget.has(line));
}

/** nginx -t on the case, where newer syntax (newerSyntaxLines) must be the reason for a failure, and the only one. */
async function nginxTestOrNewer(fixture: FixtureCase, texts: Map<string, string>): Promise<string[]> {
  const failures = await nginxTestCase(fixture, texts);
  const newer = await newerSyntaxLines(fixture, texts);
  if (newer.length === 0) return failures;
  if (failures.length === 0) return [`${fixture.name}: nginx ${localVersion} accepts what the directive rule calls newer syntax (${newer.join(', ')})`];
  const reported = failures.join('\n');
  return reported.includes(`${newer[0]!}`) ? [] : [`${fixture.name}: nginx -t fails elsewhere than the newer syntax at ${newer[0]}: ${reported}`];
}

function inputTexts(fixture: FixtureCase): Map<string, string> {
  return new Map(fixture.files.map((file) => [file, readFileSync(file, 'utf8')] as const));
}

describe('real nginx accepts the fixed fixtures', () => {
  it('finds nginx', () => {
    requireNginx();
  });

  it.each(goldenCases.map((c) => [c.name, c] as const))('nginx -t accepts the golden of %s', async (_name, fixture) => {
    const failures = await nginxTestOrNewer(fixture, expectedFixedTexts(fixture));
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it.each(validCases.map((c) => [c.name, c] as const))('nginx -t accepts %s', async (_name, fixture) => {
    const failures = await nginxTestOrNewer(fixture, inputTexts(fixture));
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

describe('the examples pass nginx -t before and after fixAll', () => {
  const sigil = path.join(examples, 'dokku', 'nginx.conf.sigil');
  const plain = path.join(examples, 'plain', 'nginx.conf');

  it('examples/dokku/nginx.conf.sigil renders and passes nginx -t as it is', () => {
    const failures = describeFailures(nginxTestDokkuTemplate(dokku, readFileSync(sigil, 'utf8')));
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('examples/dokku/nginx.conf.sigil, fixed, renders and passes nginx -t', async () => {
    const text = readFileSync(sigil, 'utf8');
    const fixed = (await fixAll([{ path: sigil, text }], { host: fixtureHost() })).texts.get(sigil);
    expect(fixed, 'fixAll changed nothing in the Dokku example').toBeDefined();
    const failures = describeFailures(nginxTestDokkuTemplate(dokku, fixed ?? text));
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('examples/plain/nginx.conf, fixed, passes nginx -t', async () => {
    const text = readFileSync(plain, 'utf8');
    const fixed = (await fixAll([{ path: plain, text }], { host: fixtureHost() })).texts.get(plain);
    expect(fixed, 'fixAll changed nothing in the plain example').toBeDefined();
    const prefix = makePrefix();
    try {
      const copy = path.join(prefix.dir, 'nginx.conf');
      writeFileSync(copy, fixed ?? text);
      const result = nginxTestFile(copy, prefix);
      expect(result.ok, result.output).toBe(true);
    } finally {
      prefix.remove();
    }
  });
});

// `prove`'s sandbox rewrite (engine/sandbox-config.ts) on every plain config of the corpus: whatever the config, the
// copy nginx runs listens only on 127.0.0.1, passes only to the stubs (each pass to its protocol's, directly or through
// an upstream{} whose servers are all a stub; a pass through variables only as the copy's own `set`s of them give
// it), names no TLS file but the run's certificate, has no resolver, no
// stream{} or mail{}, no user, pid or log outside the prefix, no embedded code (Lua, Perl, njs) and no name resolved
// at start-up (set_real_ip_from), and includes only copies inside the prefix. Each copy keeps every line where it
// was, so nginx's messages point at the user's lines.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { buildSandbox } from '../../server/src/engine/sandbox-config.js';
import type { Directive } from '../../server/src/model/types.js';
import { CORPUS_DIR, entries } from '../corpus/manifest.js';
import { sandboxStubs, STUB_PORTS } from '../support/sandbox-stubs.js';

const PREFIX = '/sandbox-prefix';
const SANDBOX_STUBS = sandboxStubs();
const STUBS = new Set(Object.values(STUB_PORTS).map((port) => `127.0.0.1:${port}`));
/** The scheme each pass may keep in the copy (none: a bare address). */
const SCHEMES: Record<string, RegExp> = {
  proxy_pass: /^https?:\/\//, fastcgi_pass: /^/, uwsgi_pass: /^(suwsgi:\/\/)?/, scgi_pass: /^/, grpc_pass: /^grpcs?:\/\//,
};
const PASSES = new Set(['proxy_pass', 'fastcgi_pass', 'uwsgi_pass', 'scgi_pass', 'grpc_pass', 'memcached_pass']);

function* all(directives: readonly Directive[]): Generator<Directive> {
  for (const directive of directives) {
    yield directive;
    yield* all(directive.children);
  }
}

/**
 * A pass through variables as the copy gives it: each `$name` replaced by the value of the last literal `set` of it in
 * the location, else in its server; `$scheme` is http (any scheme's stub is in STUBS); the URI from `$request_uri` is
 * dropped. What is left must be a stub or an upstream: a variable with no such set stays as `$name`.
 */
function throughSets(pass: Directive, text: string): string {
  const location = pass.parent;
  const server = location?.parent;
  const value = (name: string): string => {
    for (const level of [location, server]) {
      const set = level?.children.filter((child) => child.name === 'set' && child.args[0]?.value === `$${name}`).pop();
      if (set) return set.args[1]?.value ?? '';
    }
    return name === 'scheme' ? 'http' : `$${name}`;
  };
  return text.replace(/\$\{?([A-Za-z0-9_]+)\}?/g, (whole, name: string) => (name === 'request_uri' ? '/' : value(name)));
}

/** What in one rewritten file could reach outside the sandbox, one line each. */
async function leaks(file: string, text: string, upstreams: ReadonlySet<string>): Promise<string[]> {
  const { workspace } = await analyzeWorkspace([{ path: file, text }], { readRoots: [] }, []);
  const problems: string[] = [];
  const say = (directive: Directive, what: string): void => {
    problems.push(`${file}:${directive.span.start.line + 1}: ${what}: ${directive.span.startOffset}`);
  };
  for (const directive of all(workspace.files[0]!.directives)) {
    const first = directive.args[0]?.value ?? '';
    if (directive.name === 'listen' && !/^127\.0\.0\.1:\d+$/.test(first)) say(directive, `listen ${first}`);
    if (directive.name === 'server' && directive.parent?.name === 'upstream' && !STUBS.has(first)) say(directive, `server ${first}`);
    if (PASSES.has(directive.name)) {
      const target = first.includes('$') ? throughSets(directive, first) : first;
      const scheme = SCHEMES[directive.name]?.exec(target)?.[0];
      const host = scheme === undefined ? undefined : target.slice(scheme.length).split('/')[0]!;
      if (host === undefined || !(STUBS.has(host) || upstreams.has(host))) say(directive, `${directive.name} ${first}`);
    }
    if (/^ssl_(certificate|certificate_key|client_certificate|trusted_certificate|dhparam|crl|password_file|stapling_file)$/.test(directive.name) &&
      first !== SANDBOX_STUBS.certificate.cert && first !== SANDBOX_STUBS.certificate.key) say(directive, `${directive.name} ${first}`);
    if (directive.name === 'ssl_stapling') say(directive, 'ssl_stapling');
    if (['resolver', 'user', 'pid', 'error_log', 'stream', 'mail', 'set_real_ip_from'].includes(directive.name)) say(directive, directive.name);
    if (/_by_lua|^lua_|^perl|^js_/.test(directive.name)) say(directive, `embedded code ${directive.name}`);
    if (directive.name === 'include' && !first.startsWith(`${PREFIX}/`)) say(directive, `include ${first}`);
  }
  return problems;
}

const plain = entries.filter((entry) => entry.kind === 'nginx' && entry.templating === 'none');

describe('the sandbox rewrite on the corpus', () => {
  it('leaves nothing that reaches outside loopback or the prefix, and keeps every line in place', async () => {
    expect(plain.length).toBeGreaterThan(300);
    const problems: string[] = [];
    let rewritten = 0;
    for (const entry of plain) {
      const file = path.join(CORPUS_DIR, entry.file);
      const { workspace } = await analyzeWorkspace([{ path: file, text: readFileSync(file, 'utf8') }], { readRoots: [path.dirname(file)] }, []);
      if (workspace.files.some((config) => config.isTemplate || config.syntaxProblems.length > 0)) continue;
      let port = 50000;
      const sandbox = buildSandbox(workspace, { ...SANDBOX_STUBS, prefix: PREFIX, nextPort: () => port++ });
      const upstreams = new Set(
        [...all(workspace.files.flatMap((config) => config.directives))].filter((d) => d.name === 'upstream').map((d) => d.args[0]?.value ?? ''),
      );
      for (const config of workspace.files) {
        const copy = sandbox.files.get(path.join(PREFIX, 'conf', config.path))!;
        expect(copy.split('\n').length, config.path).toBe(config.text.split('\n').length);
        problems.push(...(await leaks(config.path, copy, upstreams)));
        rewritten++;
      }
    }
    expect(rewritten).toBeGreaterThan(300);
    expect(problems).toEqual([]);
  });
});

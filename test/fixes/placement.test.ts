// Where a fix may insert a directive (fixes/placement.ts): the contexts nginx accepts each in, and whether the level
// is known to be http's. Every case here is one nginx -t rejects when the answer is wrong.
import { describe, expect, it } from 'vitest';
import { scopeOf, scopesOpenedBy } from '../../server/src/analysis/scopes.js';
import { refusal, UNKNOWN_CONTEXT } from '../../server/src/fixes/placement.js';
import { checkTree, directiveIn } from '../analysis/support.js';

/** The refusal's reason for inserting `name` as a statement of the block `opener` opens, or 'allowed'. */
async function insideBlock(text: string, opener: string, name: string, file = 'site.conf'): Promise<string> {
  const { workspace } = await checkTree({ [file]: text });
  const level = scopesOpenedBy(workspace, directiveIn(workspace, file, opener))[0]!;
  return refusal(level, name)?.why ?? 'allowed';
}

/** The same for the level holding `statement` (a root's top level, for a top-level statement). */
async function besideStatement(text: string, statement: string, name: string, file = 'site.conf'): Promise<string> {
  const { workspace } = await checkTree({ [file]: text });
  const level = scopeOf(workspace, directiveIn(workspace, file, statement))[0]!;
  return refusal(level, name)?.why ?? 'allowed';
}

describe('refusal', () => {
  it('allows keepalive in an http upstream, and refuses it in stream (stream upstreams have no keepalive)', async () => {
    expect(await insideBlock('upstream app { server 127.0.0.1:1; }\n', 'upstream', 'keepalive')).toBe('allowed');
    const stream = 'events {}\nstream {\n  upstream db { server 127.0.0.1:5432; }\n}\n';
    expect(await insideBlock(stream, 'upstream', 'keepalive', 'nginx.conf')).toBe('"keepalive" is not allowed outside http');
  });

  it('refuses keepalive in the upstream of a stream snippet checked alone (its server proxies outside a location)', async () => {
    const snippet = 'upstream db { server 127.0.0.1:5432; }\nserver { listen 5433; proxy_pass db; }\n';
    expect(await insideBlock(snippet, 'upstream', 'keepalive')).toBe('"keepalive" is not allowed outside http');
  });

  it('refuses a map at the top of a snippet whose context is unknown, and allows it once the context is stated', async () => {
    const snippet = 'proxy_set_header Connection $http_connection;\n';
    expect(await besideStatement(snippet, 'proxy_set_header', 'map')).toBe(UNKNOWN_CONTEXT);
    expect(await besideStatement(`# nginx-keepalive: context=http\n${snippet}`, 'proxy_set_header', 'map')).toBe('allowed');
  });

  it('refuses a map or an upstream below the http level, whatever the file', async () => {
    const site = 'server {\n  location / { proxy_pass http://127.0.0.1:1; }\n}\n';
    expect(await insideBlock(site, 'server', 'map')).toBe('"map" is not allowed in server context');
    expect(await insideBlock(site, 'location', 'upstream')).toBe('"upstream" is not allowed in location context');
  });

  it('allows proxy settings in a location, not in an `if` (nginx accepts them in neither if nor limit_except)', async () => {
    const snippet = 'location / {\n  if ($x) {\n    proxy_pass http://127.0.0.1:1;\n  }\n}\n';
    expect(await insideBlock(snippet, 'location', 'proxy_http_version')).toBe('allowed');
    expect(await insideBlock(snippet, 'if', 'proxy_http_version')).toBe('"proxy_http_version" is not allowed in if context');
  });

  it('refuses proxy settings at the top of a snippet of unknown context (server or location?) and in its `if`', async () => {
    const snippet = 'if ($x) {\n  return 404;\n}\n';
    expect(await insideBlock(snippet, 'if', 'proxy_set_header')).toBe('"proxy_set_header" is not allowed in if context');
    expect(await besideStatement(snippet, 'if', 'proxy_set_header')).toBe(UNKNOWN_CONTEXT);
  });

  it('refuses a directive it has no table entry for: a new fix must say where its directive may go', async () => {
    expect(await insideBlock('upstream app { server 127.0.0.1:1; }\n', 'upstream', 'zone')).toBe(
      '"zone" is not allowed in upstream context',
    );
  });
});

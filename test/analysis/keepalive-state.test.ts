import { describe, expect, it } from 'vitest';
import { hasKeepalive, keepaliveState } from '../../server/src/analysis/keepalive-state.js';
import { upstreams } from '../../server/src/analysis/upstreams.js';
import type { ResolvedOptions } from '../../server/src/util/types.js';
import { checkTree, source } from './support.js';

const OLD: ResolvedOptions = { nginxVersion: undefined, keepaliveConnections: 16 };
const MODERN: ResolvedOptions = { nginxVersion: [1, 30, 0], keepaliveConnections: 16 };

async function stateOf(body: string, options = OLD, name = 'nginx.conf', extra: Record<string, string> = {}) {
  const { workspace } = await checkTree({ [name]: `upstream app {\n${body}\n}\n`, ...extra });
  return keepaliveState(upstreams(workspace)[0]!, options);
}

describe('keepaliveState', () => {
  it('none before 1.29.7, default from it', async () => {
    expect((await stateOf('  server 127.0.0.1:3000;')).kind).toBe('none');
    expect((await stateOf('  server 127.0.0.1:3000;', MODERN)).kind).toBe('default');
  });

  it('explicit for a count, also a templated one', async () => {
    const state = await stateOf('  server a;\n  keepalive 8;');
    expect(state.kind === 'explicit' && source(state.directive)).toBe('keepalive 8;');
    expect((await stateOf('  server a;\n  keepalive {{ $.N }};', OLD, 'x.sigil')).kind).toBe('explicit');
  });

  it('zero for keepalive 0, whatever the version', async () => {
    expect((await stateOf('  server a;\n  keepalive 0;', MODERN)).kind).toBe('zero');
    expect(hasKeepalive(await stateOf('  server a;\n  keepalive 0;', MODERN))).toBe(false);
  });

  it("guarded for Dokku's opt-in; default with a modern target", async () => {
    const body = '{{ if $.PROXY_KEEPALIVE }}  keepalive {{ $.PROXY_KEEPALIVE }};{{ end }}\n  server a;';
    const state = await stateOf(body, OLD, 'nginx.conf.sigil');
    expect(state.kind).toBe('guarded');
    expect(hasKeepalive(state)).toBe(true);
    expect((await stateOf(body, MODERN, 'nginx.conf.sigil')).kind).toBe('default');
  });

  it('explicit when every branch of an if/else has one, guarded when a branch lacks it', async () => {
    const both = '{{ if $.X }}\n  keepalive 8;\n{{ else }}\n  keepalive 16;\n{{ end }}\n  server a;';
    expect((await stateOf(both, OLD, 'x.sigil')).kind).toBe('explicit');
    const partial = '{{ if $.X }}\n  keepalive 8;\n{{ else if $.Y }}\n  least_conn;\n{{ else }}\n  keepalive 16;\n{{ end }}\n  server a;';
    expect((await stateOf(partial, OLD, 'x.sigil')).kind).toBe('guarded');
  });

  it('unknown when the block includes a file that is not there', async () => {
    expect((await stateOf('  server a;\n  include missing-members.conf;')).kind).toBe('unknown');
  });

  it('reads members included from another file', async () => {
    const state = await stateOf('  include members.conf;', OLD, 'nginx.conf', { 'members.conf': 'server a;\nkeepalive 4;\n' });
    expect(state.kind).toBe('explicit');
  });
});

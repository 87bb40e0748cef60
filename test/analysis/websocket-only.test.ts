// Which locations with a literal `Connection upgrade` are WebSocket-only (analysis/websocket-only.ts): the one answer
// proxy-pass-no-upstream, connection-upgrade-literal and upstream-keepalive read.
import { describe, expect, it } from 'vitest';
import { websocketOnly } from '../../server/src/analysis/websocket-only.js';
import { proxyPasses, loadTree } from '../fixes/support.js';

const RECIPE = 'proxy_set_header Upgrade $http_upgrade;\n    proxy_set_header Connection "upgrade";';

async function onlyWebsocket(location: string, body = `proxy_http_version 1.1;\n    ${RECIPE}`, nginxVersion?: string): Promise<boolean> {
  const site = `server {\n  location ${location} {\n    ${body}\n    proxy_pass http://127.0.0.1:3000;\n  }\n}\n`;
  const tree = await loadTree({ 'site.conf': site });
  const pass = proxyPasses(tree.workspace)[0]!;
  const version = nginxVersion ? (nginxVersion.split('.').map(Number) as [number, number, number]) : undefined;
  return websocketOnly(tree.workspace, pass.scope, { nginxVersion: version });
}

describe('websocketOnly', () => {
  it.each(['/ws', '/ws/', '= /rtcstats-ws/', '/cable', '/websocket', '/socket', '~ /api/v[0-9]+/(users/)?websocket$', '@api_websocket', '~* ^/(ws|wss)/'])(
    'a path naming WebSocket: %s',
    async (location) => {
      expect(await onlyWebsocket(location)).toBe(true);
    },
  );

  it.each(['/', '/api', '/events', '/socket.io', '~ ^/socket\\.io/', '~ ^/(api|ws)', '/news'])('a path that may serve pages: %s', async (location) => {
    expect(await onlyWebsocket(location)).toBe(false);
  });

  it('a forced `Upgrade websocket` makes any path WebSocket-only', async () => {
    expect(await onlyWebsocket('/', 'proxy_http_version 1.1;\n    proxy_set_header Upgrade websocket;\n    proxy_set_header Connection upgrade;')).toBe(true);
  });

  it('never without HTTP/1.1 (before 1.29.7 the default is 1.0), nor with 1.0 written', async () => {
    expect(await onlyWebsocket('/ws', RECIPE)).toBe(false);
    expect(await onlyWebsocket('/ws', `proxy_http_version 1.0;\n    ${RECIPE}`)).toBe(false);
    expect(await onlyWebsocket('/ws', RECIPE, '1.30.0')).toBe(true);
  });

  it('never without an Upgrade header, nor without the literal `upgrade`', async () => {
    expect(await onlyWebsocket('/ws', 'proxy_http_version 1.1;\n    proxy_set_header Connection upgrade;')).toBe(false);
    const map = 'proxy_http_version 1.1;\n    proxy_set_header Upgrade $http_upgrade;\n    proxy_set_header Connection $connection_upgrade;';
    expect(await onlyWebsocket('/ws', map)).toBe(false);
  });
});

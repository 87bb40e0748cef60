// Parameters by version (issue 28): what a release's handler added is an error for an older target, with the release
// that added it in the headline, and no error from that release on (nor without a target). The older side of each is
// also a fixture checked by real nginx 1.22.1 (test/fixtures/directive/invalid-*-before-*.conf).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';

async function said(text: string, nginxVersion?: string): Promise<string[]> {
  const findings = await analyze([{ path: '/virtual/nginx.conf', text }], nginxVersion ? { nginxVersion } : {});
  return findings.filter((finding) => finding.ruleId === 'directive').map((finding) => `${finding.span.start.line + 1}: ${finding.message}`);
}

const http = (body: string) => `events {}\nhttp {\n${body}\n}\n`;
const CASES: [string, string, string, string][] = [
  ['listen quic', http('server {\nlisten 443 quic;\n}'), '1.25.0', '4: invalid parameter "quic" of "listen": it needs nginx 1.25.0+'],
  [
    'upstream server resolve',
    http('upstream app {\nzone app 64k;\nserver app.internal resolve;\nkeepalive 8;\n}'),
    '1.27.3',
    '5: invalid parameter "resolve" of "server": it needs nginx 1.27.3+',
  ],
  [
    'variables in proxy_limit_rate',
    http('server {\nlisten 80;\nlocation / {\nproxy_limit_rate $arg_rate;\n}\n}'),
    '1.27.0',
    '6: "proxy_limit_rate" directive invalid value "$arg_rate": variables need nginx 1.27.0+',
  ],
  ['geo volatile', http('geo $x {\nvolatile;\ndefault 0;\n}'), '1.29.3', '4: invalid number of the geo parameters: "volatile" alone needs nginx 1.29.3+'],
  [
    'stream listen default_server',
    'events {}\nstream {\nserver {\nlisten 9000 default_server;\nproxy_pass 127.0.0.1:9001;\n}\n}\n',
    '1.25.5',
    '4: invalid parameter "default_server" of "listen": it needs nginx 1.25.5+',
  ],
];

describe('parameters by version', () => {
  it.each(CASES)('%s: an error before its release, none from it on or without a target', async (_name, text, since, before) => {
    expect(await said(text, '1.22.1')).toEqual([before]);
    expect(await said(text, since)).toEqual([]);
    expect(await said(text)).toEqual([]);
  });
});

// proxy-set-header-inheritance towards someone else's server: copying X-Forwarded-For or X-Real-IP down would tell
// a stranger who the users are, so that fix is unsafe (issue 13 item 4); towards the operator's own backends it is not.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';

const isolated = { readFile: () => undefined, glob: () => [], exists: () => false };

function site(target: string, upstream = ''): string {
  return [
    'http {',
    ...(upstream ? [upstream] : []),
    '  server {',
    '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '    proxy_set_header X-Request-Id $request_id;',
    '    location /x/ {',
    '      proxy_set_header Host example.org;',
    `      proxy_pass ${target};`,
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

async function inheritance(target: string, upstream?: string) {
  const findings = await analyze([{ path: '/virtual/site.conf', text: site(target, upstream) }], { host: isolated });
  return findings.find((finding) => finding.ruleId === 'proxy-set-header-inheritance')!;
}

describe('header copies towards third parties', () => {
  it.each(['https://fonts.gstatic.com/', 'https://my-bucket.s3.amazonaws.com', 'https://api.github.com/$uri'])(
    'are unsafe for %s, and the title says what is sent where',
    async (target) => {
      const finding = await inheritance(target);
      expect(finding.unsafeFix).toBe(true);
      expect(finding.fix?.safety).toBe('unsafe');
      expect(finding.fix?.title).toMatch(/\(sends X-Forwarded-For to [a-z0-9.-]+\)$/);
      expect(finding.detail).toContain("someone else's server");
    },
  );

  it.each(['http://127.0.0.1:3000', 'http://app:3000', 'http://unix:/run/app.sock', 'http://api.internal', 'http://localhost'])(
    'are safe for the operator\'s own %s',
    async (target) => {
      const finding = await inheritance(target);
      expect(finding.fixable).toBe(true);
      expect(finding.unsafeFix).toBeUndefined();
      expect(finding.fix?.safety).toBeUndefined();
    },
  );

  it('are safe when no dropped header identifies the client', async () => {
    const text = site('https://fonts.gstatic.com/').replace('X-Forwarded-For $proxy_add_x_forwarded_for', 'X-Request-Start $msec');
    const findings = await analyze([{ path: '/virtual/site.conf', text }], { host: isolated });
    expect(findings.find((finding) => finding.ruleId === 'proxy-set-header-inheritance')?.unsafeFix).toBeUndefined();
  });

  // An upstream{} is only a name: its servers say whose machines it reaches. proxy-pass-no-upstream's own fix writes
  // `upstream backend_api_github_com_443 { server api.github.com:443; }`, and fixAll asks again on the next pass.
  it.each([
    ['upstream gh { server api.github.com:443; }', 'api.github.com'],
    ['upstream gh { server 10.0.0.5:8080; server my-bucket.s3.amazonaws.com:443 resolve backup; }', 'my-bucket.s3.amazonaws.com'],
    ['upstream gh { server [::1]:8080; server API.GitHub.com; }', 'api.github.com'],
  ])('are unsafe through an upstream whose servers are a third party\'s: %s', async (upstream, host) => {
    const finding = await inheritance('https://gh', upstream);
    expect(finding.unsafeFix).toBe(true);
    expect(finding.fix?.title).toBe(`Copy the inherited headers into this block (sends X-Forwarded-For to ${host})`);
  });

  it.each([
    'upstream gh { server 127.0.0.1:3000; server app:3000; }',
    'upstream gh { server unix:/run/app.sock; server api.internal:80; }',
    'upstream gh { server localhost; }',
  ])('are safe through an upstream of the operator\'s own servers: %s', async (upstream) => {
    const finding = await inheritance('http://gh', upstream);
    expect(finding.unsafeFix).toBeUndefined();
  });
});

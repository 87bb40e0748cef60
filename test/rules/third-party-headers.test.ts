// proxy-set-header-inheritance towards someone else's server: copying X-Forwarded-For or X-Real-IP down would tell
// a stranger who the users are, so that fix is unsafe (issue 13 item 4); towards the operator's own backends it is not.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';

const isolated = { readFile: () => undefined, glob: () => [], exists: () => false };

function site(target: string): string {
  return [
    'http {',
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

async function inheritance(target: string) {
  const findings = await analyze([{ path: '/virtual/site.conf', text: site(target) }], { host: isolated });
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
});

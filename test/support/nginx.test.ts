import { describe, expect, it } from 'vitest';
import { freePort, nginxTest, parseNginxMessages, startNginx } from './nginx.js';

describe('parseNginxMessages', () => {
  it('reads level, message, file and line', () => {
    const output = [
      'nginx: [warn] load balancing method redefined in /a/b.conf:4',
      'nginx: [emerg] unexpected "}" in /tmp/x y/f.conf:12',
      'nginx: [emerg] no "events" section in configuration',
      'nginx: [emerg] invalid number of arguments in "set" directive in /etc/nginx/a.conf:53',
      'nginx: configuration file /tmp/n.conf test failed',
    ].join('\n');
    expect(parseNginxMessages(output)).toEqual([
      { level: 'emerg', message: 'unexpected "}"', file: '/tmp/x y/f.conf', line: 12 },
      { level: 'emerg', message: 'no "events" section in configuration' },
      { level: 'emerg', message: 'invalid number of arguments in "set" directive', file: '/etc/nginx/a.conf', line: 53 },
    ]);
  });
});

describe('real nginx', () => {
  it('nginx -t tells a valid config from an invalid one', () => {
    const ok = nginxTest((p) => `events {}\nhttp {\n${p.httpTempPaths}\nserver { listen 127.0.0.1:1; }\n}\n`);
    expect(ok.ok, ok.output).toBe(true);
    const bad = nginxTest(() => 'events {}\nhttp {\nserver { listen 127.0.0.1:1 }\n}\n');
    expect(bad.ok).toBe(false);
    expect(bad.errors[0]?.message).toBe('unexpected "}"');
  });

  it('starts nginx on a free loopback port, serves a request, and stops', async () => {
    const port = await freePort();
    const nginx = await startNginx(
      (p) => `events {}\nhttp {\n${p.httpTempPaths}\naccess_log off;\nserver {\nlisten 127.0.0.1:${port};\nlocation / { return 200 "hello from nginx"; }\n}\n}\n`,
      port,
    );
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('hello from nginx');
    } finally {
      await nginx.stop();
    }
    expect(nginx.process.exitCode !== null || nginx.process.signalCode !== null).toBe(true);
  });
});

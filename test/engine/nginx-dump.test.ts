// `nginx -T` output split back into files (engine/nginx-dump.ts), and the in-memory FileHost its includes resolve in
// (model/virtual-host.ts): analyzed without reading anything from this machine's disk.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { isNginxDump, splitNginxDump } from '../../server/src/engine/nginx-dump.js';
import { createVirtualHost } from '../../server/src/model/virtual-host.js';

/** A dump as nginx writes it: marker, the file's bytes, one LF of nginx's own. */
function dumpOf(files: [string, string][]): string {
  return files.map(([name, text]) => `# configuration file ${name}:\n${text}\n`).join('');
}

describe('splitNginxDump', () => {
  it('recovers every file byte for byte, the main configuration first', () => {
    const files: [string, string][] = [
      ['/etc/nginx/nginx.conf', 'events {}\nhttp {\n    include conf.d/*.conf;\n}\n'],
      ['/etc/nginx/conf.d/a.conf', 'upstream a { server 127.0.0.1:1; }'], // no final newline
      ['/etc/nginx/conf.d/empty.conf', ''],
      ['/etc/nginx/conf.d/crlf.conf', 'upstream b {\r\n  server 127.0.0.1:2;\r\n}\r\n\n\n'],
    ];
    expect(splitNginxDump(dumpOf(files))?.files).toEqual(files.map(([name, text]) => ({ path: name, text })));
  });

  it('skips nginx stderr lines before the dump (nginx -T 2>&1), keeps the first copy of a repeated file, normalises ..', () => {
    const text =
      'nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\n' +
      'nginx: configuration file /etc/nginx/nginx.conf test is successful\n' +
      dumpOf([
        ['/etc/nginx/nginx.conf', 'include ../shared/x.conf;\ninclude ../shared/x.conf;\n'],
        ['/etc/nginx/../shared/x.conf', 'first'],
        ['/etc/nginx/../shared/x.conf', 'second'],
      ]);
    expect(splitNginxDump(text)?.files).toEqual([
      { path: '/etc/nginx/nginx.conf', text: 'include ../shared/x.conf;\ninclude ../shared/x.conf;\n' },
      { path: '/etc/shared/x.conf', text: 'first' },
    ]);
  });

  it('knows a dump by its first line only', () => {
    expect(isNginxDump('# configuration file /etc/nginx/nginx.conf:\nevents {}\n')).toBe(true);
    expect(isNginxDump('# configuration file /etc/nginx/nginx.conf:\r\nevents {}\r\n')).toBe(true);
    expect(isNginxDump('# configuration file relative.conf:\n')).toBe(false);
    expect(isNginxDump('events {}\n# configuration file /etc/nginx/nginx.conf:\n')).toBe(false);
    expect(isNginxDump('# configuration file /etc/nginx/nginx.conf\n')).toBe(false);
    expect(isNginxDump('')).toBe(false);
    expect(splitNginxDump('http {}\n')).toBeUndefined();
  });

  it('is linear: a large dump of many files splits quickly', () => {
    const files: [string, string][] = Array.from({ length: 20_000 }, (_, i) => [`/etc/nginx/conf.d/${i}.conf`, 'server { listen 80; }']);
    const started = performance.now();
    expect(splitNginxDump(dumpOf(files))?.files).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('createVirtualHost', () => {
  const host = createVirtualHost([
    { path: '/etc/nginx/nginx.conf', text: 'main' },
    { path: '/etc/nginx/conf.d/b.conf', text: 'b' },
    { path: '/etc/nginx/conf.d/a.conf', text: 'a' },
    { path: '/etc/nginx/conf.d/.hidden.conf', text: 'h' },
    { path: '/etc/nginx/conf.d/sub/c.conf', text: 'c' },
  ]);

  it('globs as glob(3) does: byte order, no match across / or of a leading dot', () => {
    expect(host.glob('/etc/nginx/conf.d/*.conf')).toEqual(['/etc/nginx/conf.d/a.conf', '/etc/nginx/conf.d/b.conf']);
    expect(host.glob('/etc/nginx/conf.d/.*.conf')).toEqual(['/etc/nginx/conf.d/.hidden.conf']);
    expect(host.glob('/etc/nginx/*/*/*.conf')).toEqual(['/etc/nginx/conf.d/sub/c.conf']);
    expect(host.glob('/etc/nginx/conf.d/[b]*')).toEqual(['/etc/nginx/conf.d/b.conf']);
  });

  it('reads and knows only its own files', () => {
    expect(host.readFile('/etc/nginx/conf.d/a.conf')).toBe('a');
    expect(host.exists('/etc/nginx/conf.d/../nginx.conf')).toBe(true);
    expect(host.readFile('/etc/passwd')).toBeUndefined();
    expect(host.exists('/etc/nginx')).toBe(false);
  });
});

describe('analysing a dump', () => {
  it('resolves includes among the dump only: a file on this disk at an included path is never read', async () => {
    const local = mkdtempSync(path.join(os.tmpdir(), 'nk-dump-'));
    try {
      // On this machine, the included path holds an upstream without keepalive; the dump does not have it.
      writeFileSync(path.join(local, 'local.conf'), 'upstream local_only { server 127.0.0.1:9; }\n');
      const files = splitNginxDump(
        dumpOf([
          ['/srv/nginx/nginx.conf', `events {}\nhttp {\n    include conf.d/*.conf;\n    include ${local}/*.conf;\n}\n`],
          ['/srv/nginx/conf.d/app.conf', 'upstream app { server 127.0.0.1:8080; }\n'],
        ]),
      )!.files;
      const findings = await analyze(files, { host: createVirtualHost(files), readRoots: [local] });
      expect(findings.map((f) => [f.ruleId, f.file, f.span.start.line])).toEqual([['upstream-keepalive', '/srv/nginx/conf.d/app.conf', 0]]);
      expect(findings.some((f) => f.message.includes('local_only'))).toBe(false);
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  });
});

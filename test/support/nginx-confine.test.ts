// nginx -t as the tests run it writes nothing outside its prefix (strace over nginx), on the real configs that name
// /var/log, /run and /tmp paths, and keeps nginx's verdict and its messages' paths and lines.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR, entries } from '../corpus/manifest.js';
import type { NginxContext } from './expectations.js';
import { copyDebianConfFiles, makePrefix, nginxTestAsIs, nginxTestCorpusCopy, requireNginx, type NginxTestResult } from './nginx.js';
import { nginxWritesOutsidePrefix } from './nginx-confine.js';

let scratch: string;
beforeAll(() => {
  requireNginx();
  scratch = mkdtempSync(path.join(tmpdir(), 'nk-confine-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function asIs(text: string): NginxTestResult {
  const prefix = makePrefix();
  try {
    writeFileSync(path.join(prefix.dir, 'nginx.conf'), text);
    return nginxTestAsIs(path.join(prefix.dir, 'nginx.conf'), prefix);
  } finally {
    prefix.remove();
  }
}

describe('a config that names paths outside the prefix', () => {
  it('passes nginx -t and leaves every named directory untouched', () => {
    const s = scratch;
    const text = [
      `pid ${s}/nginx.pid;`,
      `error_log ${s}/error.log;`,
      'events {}',
      'http {',
      `    access_log ${s}/access.log;`,
      `    client_body_temp_path ${s}/body;`,
      `    proxy_temp_path "${s}/proxy_temp_path" 1 2;`,
      `    proxy_cache_path ${s}/cache keys_zone=one:1m;`,
      '    server {',
      '        listen 127.0.0.1:1;',
      `        error_log ${s}/server-error.log warn;`,
      `        access_log ${s}/$host.log;`,
      '        access_log /dev/stdout;',
      '    }',
      '}',
      '',
    ].join('\n');
    let result: NginxTestResult | undefined;
    const outside = nginxWritesOutsidePrefix(() => {
      result = asIs(text);
    });
    expect(result?.ok, result?.output).toBe(true);
    expect(outside).toEqual([]);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('still fails where the real path would, and says so with the path and line the config wrote', () => {
    const text = `events {}\nhttp {\n    server {\n        listen 127.0.0.1:1;\n        access_log ${scratch}/missing/access.log;\n    }\n}\n`;
    const result = asIs(text);
    expect(result.ok).toBe(false);
    expect(result.errors[0]?.message).toMatch(new RegExp(`^open\\(\\) "${scratch}/missing/access.log" failed \\(2: No such file or directory\\)$`));
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('puts the built-in pid, temp paths and access log in the prefix, and keeps a relative include working', () => {
    let result: NginxTestResult | undefined;
    const prefix = makePrefix();
    const outside = nginxWritesOutsidePrefix(() => {
      try {
        copyDebianConfFiles(prefix.dir);
        const conf = path.join(prefix.dir, 'nginx.conf');
        writeFileSync(conf, 'events {}\nhttp {\n    include mime.types;\n    server { listen 127.0.0.1:1; }\n}\n');
        result = nginxTestAsIs(conf, prefix);
      } finally {
        prefix.remove();
      }
    });
    expect(result?.ok, result?.output).toBe(true);
    expect(outside).toEqual([]);
  });
});

const CONTEXTS: readonly string[] = ['main', 'http', 'server', 'location'];
const WRITERS = /^[ \t]*(pid|error_log|access_log|\w+_temp_path|\w+_cache_path)[ \t]/m;
const accepted = entries.filter((e) => e.nginx_t === 'ok' && e.nginx_t_stubs === '' && CONTEXTS.includes(e.nginx_t_context));

describe('the corpus configs nginx accepted, run as the corpus tests run them', () => {
  it('write nothing outside the prefix, and still pass', { timeout: 120_000 }, () => {
    const naming = accepted.filter((e) => e.nginx_t_context === 'main' || WRITERS.test(readFileSync(path.join(CORPUS_DIR, e.file), 'utf8')));
    expect(naming.length).toBeGreaterThan(20);
    const failed: string[] = [];
    const outside = nginxWritesOutsidePrefix(() => {
      for (const entry of naming) {
        const prefix = makePrefix();
        try {
          copyDebianConfFiles(prefix.dir);
          const context = entry.nginx_t_context as NginxContext;
          const copy = path.join(prefix.dir, context === 'main' ? 'nginx.conf' : 'snippet.conf');
          copyFileSync(path.join(CORPUS_DIR, entry.file), copy);
          const result = nginxTestCorpusCopy(copy, context, prefix, ['http_lua']);
          // laradock's OpenResty config keeps its temp paths in /var/run/openresty, which Debian does not have; a
          // few need modules Debian does not package (headers-more, set-misc, echo).
          const excused = entry.file.includes('laradock__openresty') || result.errors[0]?.message.startsWith('unknown directive');
          if (!result.ok && !excused) failed.push(`${entry.file}: ${result.output}`);
        } finally {
          prefix.remove();
        }
      }
    });
    expect(failed).toEqual([]);
    expect(outside).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../server/src/fixes/edits.js';
import { passes, type Pass } from '../../server/src/analysis/passes.js';
import {
  implicitTarget,
  insertUpstreamEdit,
  looksLikeUpstreamName,
  reusableUpstream,
  rewritePassEdit,
  upstreamName,
} from '../../server/src/fixes/implicit-upstream.js';
import type { TextEdit } from '../../server/src/util/types.js';
import type { Workspace } from '../../server/src/model/workspace.js';
import { checkTree } from '../analysis/support.js';

async function firstPass(text: string, name = 'site.conf'): Promise<{ workspace: Workspace; pass: Pass }> {
  const { workspace } = await checkTree({ [name]: text });
  const pass = passes(workspace).find((p) => p.name === 'proxy_pass' && p.resolution.kind === 'implicit')!;
  return { workspace, pass };
}

const site = (target: string, before = '') =>
  `${before}server {\n    listen 80;\n    location /api/ {\n        proxy_pass ${target};\n    }\n}\n`;

describe('implicitTarget', () => {
  it.each([
    ['http://127.0.0.1:3000', { address: '127.0.0.1:3000', key: '127.0.0.1:3000', proxyHost: '127.0.0.1:3000', uri: '' }],
    ['http://Example.COM/v1/', { address: 'Example.COM', key: 'example.com:80', proxyHost: 'Example.COM', uri: '/v1/' }],
    ['http://example.com:80', { address: 'example.com:80', key: 'example.com:80', proxyHost: 'example.com', uri: '' }],
    ['https://example.com', { address: 'example.com:443', key: 'example.com:443', proxyHost: 'example.com', uri: '' }],
    ['http://[::1]:8080/x', { address: '[::1]:8080', key: '[::1]:8080', proxyHost: '[::1]:8080', uri: '/x' }],
    ['http://unix:/run/a.sock:/app/', { address: 'unix:/run/a.sock', key: 'unix:/run/a.sock', proxyHost: 'localhost', uri: '/app/' }],
  ])('%s', async (url, expected) => {
    const { pass } = await firstPass(site(url));
    expect(implicitTarget(pass)).toMatchObject(expected);
  });
});

describe('implicitTarget: run-time targets', () => {
  it.each([
    ['http://storage:10000$request_uri', { address: 'storage:10000', uri: '$request_uri', runtime: true }],
    ['https://fonts.gstatic.com/s/$font_file', { address: 'fonts.gstatic.com:443', uri: '/s/$font_file', runtime: true }],
    ['http://127.0.0.1:8080$request_uri', { address: '127.0.0.1:8080', uri: '$request_uri', runtime: false }],
    ['http://[::1]:8080/$uri', { address: '[::1]:8080', runtime: false }],
    ['http://unix:/run/a.sock:$request_uri', { address: 'unix:/run/a.sock', uri: '$request_uri', runtime: false }],
    ['http://storage:10000/x', { runtime: false }],
  ])('%s', async (url, expected) => {
    const { pass } = await firstPass(site(url));
    expect(implicitTarget(pass)).toMatchObject(expected);
  });

  it('reuse only an upstream whose server keeps resolving, and write zone and resolve for a new one', async () => {
    const plain = 'upstream files { server storage:10000; }\n';
    const resolving = 'upstream files { zone files 64k; server storage:10000 resolve; }\n';
    const a = await firstPass(site('http://storage:10000$request_uri', plain));
    expect(reusableUpstream(a.workspace, a.pass, implicitTarget(a.pass)!)).toBeUndefined();
    const b = await firstPass(site('http://storage:10000$request_uri', resolving));
    expect(reusableUpstream(b.workspace, b.pass, implicitTarget(b.pass)!)?.name).toBe('files');
    const text = site('http://storage:10000$request_uri');
    const c = await firstPass(text);
    const edit = insertUpstreamEdit(c.pass, 'up', implicitTarget(c.pass)!, 16, 'resolver 10.0.0.2;') as TextEdit;
    expect(applyEdits(text, [edit]).startsWith(
      'upstream up {\n    resolver 10.0.0.2;\n    zone up 64k;\n    server storage:10000 resolve;\n    keepalive 16;\n}\n',
    )).toBe(true);
  });
});

describe('upstreamName', () => {
  it('is backend_ + the address, with a suffix when taken', async () => {
    const { workspace, pass } = await firstPass(site('http://127.0.0.1:3000', 'upstream backend_127_0_0_1_3000 { server 10.0.0.1; }\n'));
    expect(upstreamName(workspace, implicitTarget(pass)!)).toBe('backend_127_0_0_1_3000_2');
    const socket = await firstPass(site('http://unix:/run/app/puma.sock'));
    expect(upstreamName(socket.workspace, implicitTarget(socket.pass)!)).toBe('backend_unix_run_app_puma_sock');
  });
});

describe('reusableUpstream', () => {
  it('finds a block whose only server is the address, default ports made explicit', async () => {
    const { workspace, pass } = await firstPass(site('http://LOCALHOST:80', 'upstream app { server localhost; keepalive 8; }\n'));
    expect(reusableUpstream(workspace, pass, implicitTarget(pass)!)?.name).toBe('app');
  });

  it.each([
    ['another port', 'upstream app { server localhost:8080; }\n'],
    ['two servers', 'upstream app { server localhost; server 127.0.0.1; }\n'],
    ['a backup server', 'upstream app { server localhost backup; }\n'],
  ])('ignores a block with %s', async (_name, upstream) => {
    const { workspace, pass } = await firstPass(site('http://localhost', upstream));
    expect(reusableUpstream(workspace, pass, implicitTarget(pass)!)).toBeUndefined();
  });

  it('does not take a block nginx reads after the server (a forward name can be left to DNS: "host not found")', async () => {
    const text = `${site('http://127.0.0.1:8081')}upstream app0 { server 127.0.0.1:8081; }\n`;
    const { workspace, pass } = await firstPass(text);
    expect(reusableUpstream(workspace, pass, implicitTarget(pass)!)).toBeUndefined();
  });

  it('follows the includes: a block included before the site is taken, one included after is not', async () => {
    const upstream = 'upstream app0 { server 127.0.0.1:8081; }\n';
    const siteFile = site('http://127.0.0.1:8081');
    for (const [order, expected] of [['ups.conf;\n  include site.conf', 'app0'], ['site.conf;\n  include ups.conf', undefined]] as const) {
      const files = { 'nginx.conf': `events {}\nhttp {\n  include ${order};\n}\n`, 'ups.conf': upstream, 'site.conf': siteFile };
      const { workspace } = await checkTree(files);
      const pass = passes(workspace).find((p) => p.resolution.kind === 'implicit')!;
      expect(reusableUpstream(workspace, pass, implicitTarget(pass)!)?.name, order).toBe(expected);
    }
  });

  it('does not take an http-port server for an https pass', async () => {
    const { workspace, pass } = await firstPass(site('https://localhost', 'upstream app { server localhost; }\n'));
    expect(reusableUpstream(workspace, pass, implicitTarget(pass)!)).toBeUndefined();
  });
});

describe('looksLikeUpstreamName', () => {
  it.each([
    ['http://backend', true],
    ['http://backend:8080', false],
    ['http://localhost', false],
    ['http://api.internal', false],
  ])('%s -> %s', async (url, expected) => {
    const { pass } = await firstPass(site(url));
    expect(looksLikeUpstreamName(pass)).toBe(expected);
  });
});

describe('insertUpstreamEdit and rewritePassEdit', () => {
  it('insert the block before the first server (above its comments) and point the pass at it, quotes kept', async () => {
    const text = `# app\nserver {\n    listen 80;\n    location /api/ {\n        proxy_pass "http://127.0.0.1:3000/v1/";\n    }\n}\n`;
    const { pass } = await firstPass(text);
    const target = implicitTarget(pass)!;
    const edits = [insertUpstreamEdit(pass, 'up', target, 16) as TextEdit, rewritePassEdit(pass, 'up', target)];
    expect(applyEdits(text, edits)).toBe(
      `upstream up {\n    server 127.0.0.1:3000;\n    keepalive 16;\n}\n\n# app\nserver {\n    listen 80;\n    location /api/ {\n        proxy_pass "http://up/v1/";\n    }\n}\n`,
    );
  });

  it('insert before the template action enclosing the server, so it renders once', async () => {
    const text = `{{ range $p := $.PORTS | split " " }}\nserver {\n  listen {{ $p }};\n  location / {\n    proxy_pass http://127.0.0.1:5000;\n  }\n}\n{{ end }}\n`;
    const { pass } = await firstPass(text, 'nginx.conf.sigil');
    const edit = insertUpstreamEdit(pass, 'up', implicitTarget(pass)!, 16) as TextEdit;
    expect(applyEdits(text, [edit]).startsWith('upstream up {\n  server 127.0.0.1:5000;\n  keepalive 16;\n}\n\n{{ range')).toBe(true);
  });

  it('give no insertion outside http (a location snippet checked alone)', async () => {
    const { pass } = await firstPass('proxy_pass http://127.0.0.1:3000;\n');
    expect(insertUpstreamEdit(pass, 'up', implicitTarget(pass)!, 16)).toBeUndefined();
  });
});

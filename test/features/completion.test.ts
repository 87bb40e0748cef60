// Completion over real parsed files: the directives nginx allows in the cursor's context (from the blocks around it,
// from where a snippet is included, in a Dokku sigil), flag and enum words, upstream names after the pass
// directives, and the version filter. `|` in a text marks the cursor (`‸` in a sigil) and is removed before the file is written.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readDocuments, tempTree } from '../model/support.js';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { describe, expect, it } from 'vitest';
import { completionDocumentation, completionsAt, type CompletionCandidate } from '../../server/src/features/completion.js';
import { allDirectives, existsInVersion, isAllowedIn } from '../../server/src/model/directive-table.js';
import type { AnalyzeOptions } from '../../server/src/engine/types.js';
import { analyze } from './support.js';

/** Completes at the `|` of `files[main]` (the first file unless named). */
async function complete(files: Record<string, string>, options: AnalyzeOptions = {}, main = Object.keys(files)[0]!, marker = '|') {
  const text = files[main]!;
  const offset = text.indexOf(marker);
  if (offset === -1) throw new Error('no cursor in the text');
  const written = { ...files, [main]: text.slice(0, offset) + text.slice(offset + marker.length) };
  const analyzed = await analyze(written, [main], options);
  const candidates = completionsAt(analyzed.ctx, offset);
  return { candidates, labels: candidates.map((candidate) => candidate.label), text: analyzed.text, offset };
}

const labelsIn = async (text: string, options: AnalyzeOptions = {}) => (await complete({ 'nginx.conf': text }, options)).labels;

describe('directive names by context', () => {
  it('offers in a location what nginx allows there, and not main- or http-only directives', async () => {
    const labels = await labelsIn('http {\n  server {\n    location / {\n      |\n    }\n  }\n}\n');
    expect(labels).toEqual(expect.arrayContaining(['proxy_pass', 'try_files', 'location', 'if', 'sendfile', 'include']));
    expect(labels).not.toContain('worker_processes');
    expect(labels).not.toContain('upstream');
    expect(labels).not.toContain('listen');
    // Every directive offered is one the table allows in a location (the keepalive snippets aside); nothing is offered twice.
    expect(labels.filter((name) => !name.endsWith('-keepalive')).every((name) => isAllowedIn(name, 'location'))).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('filters by the word typed so far only through the client: the span covers it', async () => {
    const { candidates, text, offset } = await complete({ 'nginx.conf': 'http {\n  server {\n    location / {\n      prox|\n    }\n  }\n}\n' });
    const item = candidates.find((candidate) => candidate.label === 'proxy_pass')!;
    expect(text.slice(item.span.startOffset, offset)).toBe('prox');
    expect(item.snippet).toBe('proxy_pass $0;');
    expect(item.detail).toBe('ngx_http_proxy_module · location, if in location, limit_except');
  });

  it('offers http, server, upstream, events and main directives in their blocks', async () => {
    const at = (inner: string) => labelsIn(inner);
    const http = await at('http {\n  |\n}\n');
    expect(http).toEqual(expect.arrayContaining(['server', 'upstream', 'map', 'log_format', 'proxy_cache_path']));
    expect(http).not.toContain('location');
    const server = await at('http {\n  server {\n    |\n  }\n}\n');
    expect(server).toEqual(expect.arrayContaining(['listen', 'server_name', 'location', 'if']));
    expect(server).not.toContain('proxy_pass');
    const upstream = await at('http {\n  upstream app {\n    server 127.0.0.1:3000;\n    |\n  }\n}\n');
    expect(upstream).toEqual(expect.arrayContaining(['keepalive', 'server', 'least_conn', 'ip_hash']));
    expect(upstream).not.toContain('proxy_pass');
    const events = await at('events {\n  |\n}\nhttp {}\n');
    expect(events).toEqual(expect.arrayContaining(['worker_connections', 'use', 'multi_accept']));
    expect(events).not.toContain('server');
    const main = await at('worker_processes 1;\n|\nevents {}\n');
    expect(main).toEqual(expect.arrayContaining(['http', 'events', 'stream', 'worker_processes', 'load_module']));
    expect(main).not.toContain('proxy_pass');
  });

  it('tells an if in a location from one in a server', async () => {
    const inLocation = await labelsIn('http {\n  server {\n    location / {\n      if ($x) {\n        |\n      }\n    }\n  }\n}\n');
    expect(inLocation).toEqual(expect.arrayContaining(['proxy_pass', 'return', 'rewrite', 'set']));
    expect(inLocation).not.toContain('location');
    const inServer = await labelsIn('http {\n  server {\n    if ($x) {\n      |\n    }\n  }\n}\n');
    expect(inServer).toEqual(expect.arrayContaining(['return', 'rewrite', 'set']));
    expect(inServer).not.toContain('proxy_pass');
  });

  it('offers stream directives in a stream server, not http ones', async () => {
    const labels = await labelsIn('stream {\n  upstream db { server 10.0.0.1:5432; }\n  server {\n    listen 5432;\n    |\n  }\n}\n');
    expect(labels).toEqual(expect.arrayContaining(['proxy_pass', 'proxy_timeout', 'ssl_preread']));
    expect(labels).not.toContain('location');
    expect(labels).not.toContain('proxy_set_header');
  });

  it('offers nothing inside map, types or Lua bodies, nor in a comment', async () => {
    expect(await labelsIn('http {\n  map $a $b {\n    |\n  }\n}\n')).toEqual([]);
    expect(await labelsIn('http {\n  server {\n    location / {\n      content_by_lua_block {\n        |\n      }\n    }\n  }\n}\n')).toEqual([]);
    expect(await labelsIn('http {\n  # prox|\n}\n')).toEqual([]);
  });

  it('knows a snippet included from a location is in a location', async () => {
    const files = {
      'snippets/proxy.conf': 'proxy_http_version 1.1;\n|\n',
      'nginx.conf': 'events {}\nhttp {\n  server {\n    location / {\n      include snippets/proxy.conf;\n    }\n  }\n}\n',
    };
    const text = files['snippets/proxy.conf'];
    const offset = text.indexOf('|');
    const analyzed = await analyze({ ...files, 'snippets/proxy.conf': text.replace('|', '') }, ['nginx.conf', 'snippets/proxy.conf']);
    const labels = completionsAt(analyzed.other('snippets/proxy.conf'), offset).map((candidate) => candidate.label);
    expect(labels).toContain('proxy_pass');
    expect(labels).not.toContain('listen');
  });

  it('reads the context the settings give a snippet', async () => {
    const root = tempTree({ 'extra.conf': '\n' });
    const options = { readRoots: [root], contexts: { [path.join(root, 'extra.conf')]: 'server' as const } };
    const { workspace } = await analyzeWorkspace(readDocuments(root, ['extra.conf']), options);
    const labels = completionsAt({ workspace, file: workspace.files[0]!, options }, 0).map((candidate) => candidate.label);
    expect(labels).toContain('listen');
    expect(labels).not.toContain('proxy_pass');
  });

  it('completes inside a location of the Dokku sigil, between template actions', async () => {
    const sigil = readFileSync('examples/dokku/nginx.conf.sigil', 'utf8');
    const cursor = sigil.indexOf('    proxy_http_version 1.1;');
    // The sigil's Go templates have pipes of their own: another cursor mark.
    const { labels } = await complete({ 'nginx.conf.sigil': `${sigil.slice(0, cursor)}    ‸\n${sigil.slice(cursor)}` }, {}, undefined, '‸');
    expect(labels).toContain('proxy_pass');
    expect(labels).not.toContain('listen');
  });
});

describe('snippets', () => {
  it('writes block directives with their braces and flags with their choices', async () => {
    const { candidates } = await complete({ 'nginx.conf': 'http {\n  server {\n    |\n  }\n}\n' });
    const snippet = (label: string) => candidates.find((candidate) => candidate.label === label)!.snippet;
    expect(snippet('location')).toBe('location ${1:/} {\n\t$0\n}');
    expect(snippet('sendfile')).toBe('sendfile ${1|on,off|};');
    expect(snippet('server_name')).toBe('server_name $0;');
    expect(candidates.find((candidate) => candidate.label === 'location')!.kind).toBe('block');
  });
});

describe('argument values', () => {
  it('offers on and off for a flag, the words of an enum, and nothing after them', async () => {
    const flag = await complete({ 'nginx.conf': 'http {\n  sendfile o|\n}\n' });
    expect(flag.labels).toEqual(['on', 'off']);
    expect(flag.text.slice(flag.candidates[0]!.span.startOffset, flag.offset)).toBe('o');
    expect(flag.candidates.find((candidate) => candidate.label === 'off')!.detail).toBe('sendfile (default)');
    expect(await labelsIn('http {\n  server {\n    autoindex_format |\n  }\n}\n')).toEqual(['html', 'json', 'jsonp', 'xml']);
    expect(await labelsIn('http {\n  sendfile on |\n}\n')).toEqual([]);
    // A bitmask takes several words: those given are not offered again.
    expect(await labelsIn('http {\n  ssl_protocols TLSv1.2 |\n}\n')).not.toContain('TLSv1.2');
  });
});

describe("parameters from nginx.org's syntax lines and parameter lists", () => {
  const inServer = (line: string, options: AnalyzeOptions = {}) => labelsIn(`http {\n  server {\n    ${line}\n  }\n}\n`, options);
  const inUpstream = (line: string, options: AnalyzeOptions = {}) =>
    labelsIn(`http {\n  upstream app {\n    server 127.0.0.1:3000;\n    ${line}\n  }\n}\n`, options);

  it('offers listen parameters after the address, each once, in the releases that have them', async () => {
    const labels = await inServer('listen 80 |');
    expect(labels).toEqual(expect.arrayContaining(['default_server', 'ssl', 'http2', 'quic', 'proxy_protocol', 'reuseport', 'backlog=', 'so_keepalive=']));
    expect(labels).not.toContain('multipath'); // 1.29.7: newer than the nginx assumed without a setting
    expect(await inServer('listen 80 |', { nginxVersion: '1.29.7' })).toContain('multipath');
    expect(await inServer('listen 443 |', { nginxVersion: '1.22.1' })).not.toContain('quic'); // 1.25.0
    expect(await inServer('listen 443 ssl |')).not.toContain('ssl');
    // The first argument is the address: no parameter there.
    expect(await inServer('listen |')).toEqual([]);
  });

  it("offers an upstream server's parameters, not the commercial ones, resolve from 1.27.3", async () => {
    const labels = await inUpstream('server 10.0.0.2:3000 |');
    expect(labels).toEqual(expect.arrayContaining(['weight=', 'max_fails=', 'fail_timeout=', 'backup', 'down', 'max_conns=', 'resolve']));
    expect(labels).not.toContain('slow_start=');
    expect(await inUpstream('server 10.0.0.2:3000 |', { nginxVersion: '1.22.1' })).not.toContain('resolve');
    expect(await inUpstream('server 10.0.0.2:3000 weight=2 |')).not.toContain('weight=');
  });

  it('offers keepalive local only where the assumed nginx has it (1.29.7), after the number, once', async () => {
    expect(await inUpstream('keepalive 16 |')).toEqual([]);
    expect(await inUpstream('keepalive 16 |', { nginxVersion: '1.29.7' })).toEqual(['local']);
    expect(await inUpstream('keepalive 16 local |', { nginxVersion: '1.30.0' })).toEqual([]);
    expect(await inUpstream('keepalive |', { nginxVersion: '1.30.0' })).toEqual([]);
  });

  it('offers enum words by version, a word standing for a number, and a parameter after two arguments', async () => {
    expect(await labelsIn('http {\n  proxy_http_version |\n}\n', { nginxVersion: '1.29.3' })).toEqual(['1.0', '1.1']);
    expect(await labelsIn('http {\n  proxy_http_version |\n}\n')).toEqual(['1.0', '1.1', '2']);
    expect(await labelsIn('worker_processes |\nevents {}\n')).toEqual(['auto']);
    expect(await inServer('add_header X-Frame-Options |')).toEqual([]);
    expect(await inServer('add_header X-Frame-Options DENY |')).toEqual(['always']);
  });

  it('offers nothing in a comment or a quoted string', async () => {
    expect(await inServer('# listen 80 |')).toEqual([]);
    expect(await inServer('add_header X "a |')).toEqual([]);
  });
});

describe('upstream names', () => {
  const site = (pass: string) =>
    `http {\n  upstream app { server 127.0.0.1:3000; keepalive 16; }\n  upstream php { server unix:/run/php.sock; }\n  server {\n    location / {\n      ${pass}\n    }\n  }\n}\nstream {\n  upstream db { server 10.0.0.1:5432; }\n}\n`;

  it('offers http upstreams after proxy_pass http://, replacing only the name', async () => {
    const { candidates, text, offset } = await complete({ 'nginx.conf': site('proxy_pass http://a|') });
    expect(candidates.map((candidate) => candidate.label)).toEqual(['app', 'php']);
    expect(text.slice(candidates[0]!.span.startOffset, offset)).toBe('a');
    expect(candidates[0]!.documentation).toContain('keepalive: `keepalive 16;`');
  });

  it('writes the scheme when none is typed, and takes names alone for fastcgi_pass and grpc_pass', async () => {
    expect((await complete({ 'nginx.conf': site('proxy_pass |') })).labels).toEqual(['http://app', 'http://php']);
    expect((await complete({ 'nginx.conf': site('fastcgi_pass |') })).labels).toEqual(['app', 'php']);
    expect((await complete({ 'nginx.conf': site('grpc_pass grpc://|') })).labels).toEqual(['app', 'php']);
  });

  it('offers stream upstreams in a stream server', async () => {
    const text = 'stream {\n  upstream db { server 10.0.0.1:5432; }\n  server {\n    listen 5432;\n    proxy_pass |\n  }\n}\nhttp { upstream app { server 127.0.0.1:1; } }\n';
    expect((await complete({ 'nginx.conf': text })).labels).toEqual(['db']);
  });
});

describe('the target nginx version', () => {
  it('leaves out directives newer than the target, and before 1.29.7 when none is set', async () => {
    const newer = allDirectives().find((entry) => entry.since === '1.25.1' && entry.contexts.includes('server'))!;
    const text = 'http {\n  server {\n    |\n  }\n}\n';
    expect(await labelsIn(text, { nginxVersion: '1.22.1' })).not.toContain(newer.name);
    expect(await labelsIn(text, { nginxVersion: '1.30.0' })).toContain(newer.name);
    const removed = allDirectives().find((entry) => entry.until === '1.25.1' && entry.contexts.includes('server'))!;
    expect(await labelsIn(text, { nginxVersion: '1.30.0' })).not.toContain(removed.name);
    const modern = allDirectives().find((entry) => !existsInVersion(entry, [1, 29, 6]) && entry.contexts.includes('http'))!;
    expect(await labelsIn('http {\n  |\n}\n')).not.toContain(modern.name);
  });
});

describe('documentation', () => {
  it('documents a directive from the table, with its link', async () => {
    const { candidates } = await complete({ 'nginx.conf': 'http {\n  |\n}\n' });
    const sendfile = candidates.find((candidate: CompletionCandidate) => candidate.label === 'sendfile')!;
    const markdown = completionDocumentation(sendfile.reference!, {})!;
    expect(markdown).toContain('Enables or disables the use of sendfile.');
    expect(markdown).toContain('- Default: `sendfile off;`');
    expect(markdown).toContain('(https://nginx.org/en/docs/http/ngx_http_core_module.html#sendfile)');
  });
});

describe('the keepalive snippets', () => {
  const snippetsIn = async (text: string) =>
    (await complete({ 'nginx.conf': text })).candidates.filter((candidate) => candidate.kind === 'snippet').map((candidate) => candidate.label);

  it('are offered only where nginx allows their block', async () => {
    expect(await snippetsIn('|\nevents {}\n')).toEqual([]);
    expect(await snippetsIn('events {\n  |\n}\n')).toEqual([]);
    expect((await snippetsIn('http {\n  |\n}\n')).sort()).toEqual(['map-connection-upgrade', 'upstream-keepalive']);
    expect(await snippetsIn('http {\n  server {\n    |\n  }\n}\n')).toEqual(['location-keepalive']);
    expect(await snippetsIn('http {\n  server {\n    location / {\n      |\n    }\n  }\n}\n')).toEqual(['location-keepalive']);
    expect(await snippetsIn('http {\n  upstream app {\n    |\n  }\n}\n')).toEqual([]);
    // stream's upstream and map are other modules' directives: the http bodies (proxy_http_version…) do not fit there.
    expect(await snippetsIn('stream {\n  |\n}\n')).toEqual([]);
  });

  it('carry the snippet body and, for plain-text clients, its defaults', async () => {
    const { candidates } = await complete({ 'nginx.conf': 'http {\n  server {\n    loc|\n  }\n}\n' });
    const item = candidates.find((candidate) => candidate.label === 'location-keepalive')!;
    expect(item.snippet).toContain('location ${1:/} {\n\tproxy_http_version 1.1;');
    expect(item.text).toContain('location / {\n\tproxy_http_version 1.1;');
    expect(item.text).toContain('proxy_pass http://app;');
  });
});

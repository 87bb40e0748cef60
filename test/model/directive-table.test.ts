// The accessor over the generated directive table: lookups, contexts, argument counts, values, variables, versions
// and links, on entries whose nginx behaviour is known (the real-nginx check is directive-table-nginx.test.ts).
import { describe, expect, it } from 'vitest';
import {
  allDirectives,
  argumentCountValid,
  directiveEntries,
  directiveIn,
  docsUrl,
  entryAtVersion,
  existsInVersion,
  isAllowedIn,
  moduleInfo,
  TABLE_VERSIONS,
  valueAccepted,
  variableEntry,
} from '../../server/src/model/directive-table.js';

describe('directive table accessor', () => {
  it('finds every module entry of a name and picks the one allowed in a context', () => {
    expect(directiveEntries('proxy_pass').map((e) => e.module).sort()).toEqual(['ngx_http_proxy_module', 'ngx_stream_proxy_module']);
    expect(directiveIn('keepalive_timeout', 'upstream')?.module).toBe('ngx_http_upstream_keepalive_module');
    expect(directiveIn('keepalive_timeout', 'server')?.module).toBe('ngx_http_core_module');
    expect(isAllowedIn('proxy_pass', 'http')).toBe(false);
    expect(isAllowedIn('include', 'stream-upstream')).toBe(true);
    expect(directiveEntries('no_such_directive')).toEqual([]);
  });

  it('checks argument counts the way nginx does', () => {
    const location = directiveIn('location', 'server')!;
    expect([0, 1, 2, 3].map((n) => argumentCountValid(location, n))).toEqual([false, true, true, false]);
    const gzip = directiveIn('gzip', 'http')!;
    expect([0, 1, 2].map((n) => argumentCountValid(gzip, n))).toEqual([false, true, false]);
    const tryFiles = directiveIn('try_files', 'location')!;
    expect([1, 2, 7].map((n) => argumentCountValid(tryFiles, n))).toEqual([false, true, true]);
  });

  it('knows flag and enum words', () => {
    const sendfile = directiveIn('sendfile', 'http')!;
    expect(valueAccepted(sendfile, 'ON')).toBe(true);
    expect(valueAccepted(sendfile, 'yes')).toBe(false);
    expect(directiveIn('proxy_http_version', 'location')!.values).toContain('1.1');
    expect(valueAccepted(directiveIn('root', 'location')!, 'anything')).toBeUndefined();
  });

  it('marks bodies a module reads itself, and blocks', () => {
    expect(directiveIn('map', 'http')).toMatchObject({ block: true, body: 'custom' });
    expect(directiveIn('location', 'server')?.body).toBeUndefined();
  });

  it('resolves variables, prefix variables by their longest prefix', () => {
    expect(variableEntry('remote_addr')?.module).toBe('ngx_http_core_module');
    expect(variableEntry('http_user_agent')).toMatchObject({ name: 'http_user_agent', module: 'ngx_http_core_module' });
    expect(variableEntry('http_x_request_id')).toMatchObject({ name: 'http_', prefix: true });
    expect(variableEntry('upstream_http_x_id')).toMatchObject({ name: 'upstream_http_', module: 'ngx_http_upstream_module' });
    expect(variableEntry('remote_addr', 'stream')?.module).toBe('ngx_stream_core_module');
    expect(variableEntry('1')).toBeUndefined();
  });

  it('says which versions have an entry, from the release walk', () => {
    expect(TABLE_VERSIONS.oldest).toBe('1.22.1');
    const ssl = directiveEntries('ssl').find((e) => e.module === 'ngx_http_ssl_module')!;
    expect(ssl.until).toBe('1.25.1');
    expect(existsInVersion(ssl, [1, 22, 1])).toBe(true);
    expect(existsInVersion(ssl, [1, 25, 1])).toBe(false);
    const keepalive = directiveIn('keepalive', 'upstream')!;
    expect(keepalive.changes?.[0]).toEqual({ version: '1.29.7', was: { args: '1' } });
  });

  it('reads an entry as each release has it, one object per form (the directive rule keys its checks on them)', () => {
    const version = directiveIn('proxy_http_version', 'location')!;
    const before = entryAtVersion(version, [1, 29, 3]);
    expect(before.values).toEqual(['1.0', '1.1']);
    expect(before.default).toBe('1.0');
    expect(entryAtVersion(version, [1, 29, 5])).toMatchObject({ default: '1.0' });
    expect(entryAtVersion(version, [1, 29, 5]).values).toEqual(version.values);
    expect(entryAtVersion(version, [1, 29, 7])).toBe(version);
    expect(entryAtVersion(version, [1, 22, 1])).toBe(before);
    expect(entryAtVersion(version, [1, 29, 5])).toBe(entryAtVersion(version, [1, 29, 6]));
    expect(version.values).toContain('2');
  });

  it('links nginx directives to their nginx.org anchor and third-party ones to their project', () => {
    expect(docsUrl(directiveIn('proxy_pass', 'location')!)).toBe('https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_pass');
    expect(docsUrl(directiveIn('gzip', 'http')!)).toBe('https://nginx.org/en/docs/http/ngx_http_gzip_module.html#gzip');
    expect(docsUrl(directiveIn('keepalive', 'upstream')!)).toBe('https://nginx.org/en/docs/http/ngx_http_upstream_module.html#keepalive');
    expect(docsUrl(directiveIn('content_by_lua_block', 'location')!)).toMatch(/^https:\/\/github\.com\/openresty\/lua-nginx-module/);
    expect(moduleInfo('ngx_stream_core_module')?.debian).toBe('libnginx-mod-stream');
    expect(moduleInfo('ngx_http_proxy_module')?.debian).toBe('static');
  });

  it('has a module, a link and sorted unique entries for every directive', () => {
    const keys = allDirectives().map((e) => `${e.name} ${e.module}`);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of allDirectives()) expect(docsUrl(entry), entry.name).toMatch(/^https:\/\//);
  });
});

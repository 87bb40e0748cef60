// Every nginx module Debian 12 ships (all 30 libnginx-mod-* packages, fetched with apt-get download and unpacked into
// a private cache, never installed) against the directive table and against real nginx:
// - the ngx_command_t tables compiled into each module object name exactly the directives, contexts and argument
//   rules the table has for 1.22.1 (the table reads most of them from C sources, so this checks the reader too);
// - one config loading every module with load_module (absolute paths) and using directives of each passes
//   `nginx -t` of Debian's nginx, and the checker accepts the same config;
// - without one module's load_module line, nginx rejects its directive and the checker names the module.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { directiveEntries, entryAtVersion, existsInVersion } from '../../server/src/model/directive-table.js';
import { objectTree } from '../../scripts/directive-table/debian-binaries.mjs';
import { DEBIAN_MODULE_PACKAGES, ensureDebianModules } from '../../scripts/directive-table/debian-modules.mjs';
import { requireNginx } from '../support/nginx.js';

const DEBIAN_NGINX = [1, 22, 1];
/** Loaded first: the modules others need (NDK for lua and set-misc, stream for the stream modules, mail). */
const FIRST = ['ndk_http_module.so', 'ngx_stream_module.so', 'ngx_mail_module.so'];

let dirs: ReturnType<typeof ensureDebianModules>;
let prefix: string;

beforeAll(() => {
  dirs = ensureDebianModules();
  prefix = mkdtempSync(path.join(tmpdir(), 'nk-debian-modules-'));
  for (const sub of ['logs', 'tmp', 'cache', 'hls', 'dash', 'js']) mkdirSync(path.join(prefix, sub));
}, 120_000);
afterAll(() => {
  if (prefix) rmSync(prefix, { recursive: true, force: true });
});

const objects = (): string[] => {
  const all = readdirSync(dirs.modulesDir).filter((name) => name.endsWith('.so'));
  return [...FIRST.filter((name) => all.includes(name)), ...all.filter((name) => !FIRST.includes(name)).sort()];
};

/** Directives of every package, in the contexts they belong to; paths stay inside the prefix. */
function config(loaded: readonly string[], p: string): string {
  return `${loaded.map((name) => `load_module ${path.join(dirs.modulesDir, name)};`).join('\n')}
events {}
http {
    access_log off;
    client_body_temp_path ${p}/tmp/body; proxy_temp_path ${p}/tmp/proxy; fastcgi_temp_path ${p}/tmp/fastcgi;
    uwsgi_temp_path ${p}/tmp/uwsgi; scgi_temp_path ${p}/tmp/scgi;
    perl_modules ${dirs.perlDir};
    perl_set $perl_one 'sub { return "1"; }';
    upload_progress uploads 1m;
    upload_progress_json_output;
    brotli on;
    brotli_types text/css;
    brotli_static on;
    geoip_proxy 10.0.0.0/8;
    geoip2_proxy 10.0.0.0/8;
    more_set_headers 'X-Module: all';
    js_path ${p}/js;
    js_var $js_one 1;
    lua_shared_dict cache 1m;
    modsecurity off;
    modsecurity_rules 'SecRuleEngine DetectionOnly';
    dav_ext_lock_zone zone=dav:1m;
    nchan_max_reserved_memory 8m;
    proxy_cache_path ${p}/cache keys_zone=pc:1m;
    fancyindex_exact_size off;
    xslt_types text/xml;
    image_filter_buffer 1m;
    srcache_default_expire 60s;
    subs_filter_types text/css;
    memc_connect_timeout 5s;
    auth_pam_service_name nginx;
    upstream fair_backend { fair; server 127.0.0.1:1; }
    upstream memc_backend { server 127.0.0.1:11211; }
    server {
        listen 127.0.0.1:18080;
        location /pam { auth_pam "Restricted"; }
        location ~ /purge(/.*) { proxy_cache_purge pc $1; }
        location /echo { echo hello; }
        location /index { fancyindex on; fancyindex_exact_size off; }
        location /memc { set $memc_key $uri; memc_pass memc_backend; }
        location /misc { set_md5 $digest $uri; set_encode_base64 $b64 $digest; }
        location /cached { srcache_fetch GET /memc $uri; proxy_pass http://fair_backend; }
        location /subs { subs_filter a b; proxy_pass http://fair_backend; }
        location /dav { dav_ext_methods propfind options; dav_ext_lock zone=dav; }
        location /upload { proxy_pass http://fair_backend; track_uploads uploads 30s; }
        location /progress { report_uploads uploads; }
        location /image { image_filter resize 10 10; }
        location /xml { xslt_string_param title 'x'; }
        location /js { js_var $js_two 2; }
        location /pub { nchan_publisher; nchan_channel_id news; }
        location /sub { nchan_subscriber; nchan_channel_id news; }
        location /lua { content_by_lua_block { ngx.say("lua") } }
        location /perl { perl 'sub { return 204; }'; }
        location /headers { more_clear_headers X-Module; brotli_comp_level 5; }
    }
}
stream {
    js_var $stream_js 1;
    server { listen 127.0.0.1:18081; return ok; }
}
mail {
    auth_http 127.0.0.1:1/auth;
    server { listen 127.0.0.1:18025; protocol smtp; smtp_auth none; }
}
rtmp {
    server {
        listen 127.0.0.1:11935;
        application live { live on; hls on; hls_path ${p}/hls; hls_fragment 3s; dash on; dash_path ${p}/dash; }
    }
}
`;
}

/** `nginx -t` in the prefix, with the unpacked libraries on the loader's path (nothing installed system-wide). */
function nginxT(conf: string): { ok: boolean; output: string } {
  const file = path.join(prefix, 'nginx.conf');
  writeFileSync(file, conf);
  const globals = `pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log;`;
  const result = spawnSync(requireNginx(), ['-t', '-q', '-p', `${prefix}/`, '-e', `${prefix}/logs/startup.log`, '-c', file, '-g', globals], {
    encoding: 'utf8',
    env: { ...process.env, LD_LIBRARY_PATH: dirs.libraryDir },
  });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

async function checkerFindings(conf: string): Promise<string[]> {
  const file = path.join(prefix, 'nginx.conf');
  const found = await analyze([{ path: file, text: conf }], { readRoots: [prefix], nginxVersion: '1.22.1' });
  return found.filter((f) => f.ruleId === 'directive' || f.ruleId === 'syntax').map((f) => `${f.span.start.line + 1}: ${f.message}`);
}

describe("Debian 12's nginx modules", () => {
  it('are all there: one module object or more for each of the 30 packages', () => {
    expect(DEBIAN_MODULE_PACKAGES).toHaveLength(30);
    expect(objects().length).toBeGreaterThanOrEqual(30);
  });

  it("declare in their compiled command tables exactly the table's directives, contexts and argument rules", () => {
    const differences: string[] = [];
    let checked = 0;
    for (const object of objects()) {
      for (const compiled of objectTree(path.join(dirs.modulesDir, object)).directives) {
        checked++;
        const entry = directiveEntries(compiled.name).find((e) => e.module === compiled.module && existsInVersion(e, DEBIAN_NGINX));
        if (!entry) {
          differences.push(`${object}: ${compiled.module} ${compiled.name} is not in the table`);
          continue;
        }
        const then = entryAtVersion(entry, DEBIAN_NGINX);
        const table = { contexts: then.contexts, args: then.args, block: then.block ?? false };
        const binary = { contexts: compiled.contexts, args: compiled.args, block: compiled.block ?? false };
        if (JSON.stringify(table) !== JSON.stringify(binary)) differences.push(`${compiled.name}: table ${JSON.stringify(table)} vs ${object} ${JSON.stringify(binary)}`);
      }
    }
    expect(differences).toEqual([]);
    expect(checked).toBeGreaterThan(600);
  });

  it('load together into real nginx with directives of each, and the checker accepts the same config', async () => {
    const conf = config(objects(), prefix);
    const result = nginxT(conf);
    expect(result.output).not.toMatch(/emerg/);
    expect(result.ok).toBe(true);
    expect(await checkerFindings(conf)).toEqual([]);
    // Not because anything goes with modules loaded: a misspelt name among them is still caught.
    const typo = conf.replace('upload_progress_json_output;', 'upload_progress_json_outptu;');
    expect(nginxT(typo).output).toContain('unknown directive "upload_progress_json_outptu"');
    expect((await checkerFindings(typo)).map((f) => f.replace(/^\d+: /, ''))).toEqual([
      'unknown directive "upload_progress_json_outptu": did you mean "upload_progress_json_output"?',
    ]);
  }, 60_000);

  it("without a module's load_module line nginx rejects its directive, and the checker names the module", async () => {
    const conf = config(objects().filter((name) => name !== 'ngx_http_uploadprogress_module.so'), prefix);
    const result = nginxT(conf);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('unknown directive "upload_progress"');
    const line = conf.split('\n').findIndex((text) => text.includes('upload_progress uploads')) + 1;
    expect((await checkerFindings(conf))[0]).toBe(
      `${line}: "upload_progress" is from ngx_http_uploadprogress_module, which is not loaded: add its load_module line`,
    );
  }, 60_000);

  it('refuse a stream module of their own before ngx_stream_module.so, so a config loading one alone has stream built in', async () => {
    const js = ['ngx_http_js_module.so', 'ngx_stream_js_module.so'];
    const conf = `${js.map((name) => `load_module ${path.join(dirs.modulesDir, name)};`).join('\n')}
events {}
stream {
    js_var $stream_js 1;
    server { listen 127.0.0.1:18081; return ok; }
}
`;
    expect(nginxT(conf).output).toContain('undefined symbol: ngx_stream_top_filter');
    // nginx.org's packages (stream compiled in) ship njs objects of these names: njs-examples configs look like this.
    expect(await checkerFindings(conf)).toEqual([]);
  });
});

// The Debian 12 modules whose C sources the Debian mirror no longer serves (their orig tarballs are 404), read from
// the binary packages instead: `apt-get download` fetches the .deb (no installation), `dpkg-deb --fsys-tarfile`
// unpacks the module object in memory, and elf-commands.mjs reads its ngx_command_t tables. The binary is what users
// load with load_module, so names, contexts and arities are exactly the shipped ones; defaults and custom block
// bodies are not in a command table and are left out for these modules.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readModuleObject } from './elf-commands.mjs';
import { argumentRule, contextsOf } from './snapshot.mjs';

/** Package, Debian version (as apt-get download names the file, epoch as %3a), module objects, home page, licence. */
export const BINARY_MODULES = [
  { package: 'libnginx-mod-http-auth-pam', version: '1:1.5.3-3', objects: ['ngx_http_auth_pam_module.so'], home: 'https://github.com/sto/ngx_http_auth_pam_module', licence: 'BSD-2-Clause' },
  { package: 'libnginx-mod-http-cache-purge', version: '1:2.3-4', objects: ['ngx_http_cache_purge_module.so'], home: 'https://github.com/FRiCKLE/ngx_cache_purge', licence: 'BSD-2-Clause' },
  { package: 'libnginx-mod-http-memc', version: '0.19-2', objects: ['ngx_http_memc_module.so'], home: 'https://github.com/openresty/memc-nginx-module#directives', licence: 'BSD-2-Clause' },
  { package: 'libnginx-mod-http-uploadprogress', version: '1:0.9.2-3', objects: ['ngx_http_uploadprogress_module.so'], home: 'https://github.com/masterzen/nginx-upload-progress-module', licence: 'BSD-2-Clause' },
  { package: 'libnginx-mod-http-js', version: '0.7.9-2', objects: ['ngx_http_js_module.so'], home: 'https://nginx.org/en/docs/http/ngx_http_js_module.html', licence: 'BSD-2-Clause' },
  { package: 'libnginx-mod-stream-js', version: '0.7.9-2', objects: ['ngx_stream_js_module.so'], home: 'https://nginx.org/en/docs/stream/ngx_stream_js_module.html', licence: 'BSD-2-Clause' },
  // The NDK's sources are read from its tarball, but it assembles its command table from #included files the C reader
  // does not follow: its one directive, upstream_list, is taken from the binary.
  { package: 'libnginx-mod-http-ndk', version: '1:0.3.2-3', objects: ['ndk_http_module.so'], home: 'https://github.com/vision5/ngx_devel_kit', licence: 'BSD-3-Clause', supplement: true },
  { package: 'libnginx-mod-nchan', version: '1:1.3.6+dfsg-2', objects: ['ngx_nchan_module.so'], home: 'https://nchan.io/#directives', licence: 'MIT' },
];

const MODULES_DIR = 'usr/lib/nginx/modules';

/** The file name apt-get download gives a package: `<package>_<version with : as %3a>_amd64.deb`. */
export function debFileName(party) {
  return `${party.package}_${party.version.replace(':', '%3a')}_amd64.deb`;
}

/** Downloads the packages into `dir` (apt-get download: the files only, nothing installed). */
export function fetchDebs(dir, packages) {
  mkdirSync(dir, { recursive: true });
  if (packages.length === 0) return;
  execFileSync('apt-get', ['download', ...packages.map((p) => `${p.package}=${p.version}`)], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Unpacks a .deb's module objects into a scratch directory; returns { object name: path } and a cleanup. */
function unpackObjects(deb) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'nk-deb-'));
  execFileSync('dpkg-deb', ['-x', deb, scratch]);
  const dir = path.join(scratch, MODULES_DIR);
  const objects = existsSync(dir) ? Object.fromEntries(readdirSync(dir).map((name) => [name, path.join(dir, name)])) : {};
  return { objects, cleanup: () => rmSync(scratch, { recursive: true, force: true }) };
}

/** A module object's directives as table entries (the same shape readTree gives for C sources). */
export function objectTree(file) {
  const directives = [];
  const modules = {};
  for (const module of readModuleObject(file)) {
    modules[module.name] = { type: module.type, file: path.basename(file) };
    for (const command of module.commands) {
      const entry = { name: command.name, module: module.name, contexts: contextsOf(command.type, module.type), args: argumentRule(command.type) };
      if (command.type & 0x100) entry.block = true;
      if (command.values) {
        entry.values = command.values;
        if (command.multiple) entry.multiple = true;
      } else if (entry.args === 'flag') entry.values = ['on', 'off'];
      directives.push(entry);
    }
  }
  return { directives, variables: [], modules };
}

/** Reads every binary module present in `debsDir`; `missing` lists the packages whose .deb is not there. */
export function readBinaryModules(debsDir) {
  const parties = [];
  const missing = [];
  for (const party of BINARY_MODULES) {
    const deb = path.join(debsDir, debFileName(party));
    if (!existsSync(deb)) {
      missing.push(debFileName(party));
      continue;
    }
    const { objects, cleanup } = unpackObjects(deb);
    try {
      const trees = party.objects.map((name) => {
        if (!objects[name]) throw new Error(`${deb} has no ${MODULES_DIR}/${name}`);
        return objectTree(objects[name]);
      });
      const tree = { directives: trees.flatMap((t) => t.directives), variables: [], modules: Object.assign({}, ...trees.map((t) => t.modules)) };
      parties.push({ ...party, deb, tree });
    } finally {
      cleanup();
    }
  }
  return { parties, missing };
}

#!/usr/bin/env node
// Every nginx module package Debian 12 ships (`apt-cache search libnginx-mod`, less the -dev one), fetched with
// `apt-get download` and unpacked with `dpkg-deb -x` into a private directory: nothing is installed, /etc/nginx and
// /usr/lib/nginx stay as they are. The test that loads all of them into real nginx
// (test/model/debian-modules-nginx.test.ts) and the generator's binary step read them from here.
//   node scripts/directive-table/debian-modules.mjs [DIR]   download and unpack (default: the cache directory below)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian 12's libnginx-mod-* packages (bookworm and bookworm-security). */
export const DEBIAN_MODULE_PACKAGES = [
  'libnginx-mod-http-auth-pam', 'libnginx-mod-http-brotli-filter', 'libnginx-mod-http-brotli-static',
  'libnginx-mod-http-cache-purge', 'libnginx-mod-http-dav-ext', 'libnginx-mod-http-echo', 'libnginx-mod-http-fancyindex',
  'libnginx-mod-http-geoip', 'libnginx-mod-http-geoip2', 'libnginx-mod-http-headers-more-filter',
  'libnginx-mod-http-image-filter', 'libnginx-mod-http-js', 'libnginx-mod-http-lua', 'libnginx-mod-http-memc',
  'libnginx-mod-http-modsecurity', 'libnginx-mod-http-ndk', 'libnginx-mod-http-perl', 'libnginx-mod-http-set-misc',
  'libnginx-mod-http-srcache-filter', 'libnginx-mod-http-subs-filter', 'libnginx-mod-http-uploadprogress',
  'libnginx-mod-http-upstream-fair', 'libnginx-mod-http-xslt-filter', 'libnginx-mod-mail', 'libnginx-mod-nchan',
  'libnginx-mod-rtmp', 'libnginx-mod-stream', 'libnginx-mod-stream-geoip', 'libnginx-mod-stream-geoip2',
  'libnginx-mod-stream-js',
];

/** Shared libraries some of the modules link that a system with only nginx lacks; unpacked beside them. */
export const MODULE_LIBRARIES = ['libmaxminddb0', 'libgeoip1', 'libmodsecurity3', 'libfuzzy2', 'liblua5.3-0', 'libyajl2'];

export const DEFAULT_CACHE = process.env.NK_DEBIAN_MODULES ?? path.join(homedir(), '.cache/nginx-keepalive/debian-modules');

const debOf = (files, pkg) => files.find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));

/** apt-get download into `dir`; a container image without package lists gets them first (apt-get update). */
function download(dir, packages) {
  const run = () => execFileSync('apt-get', ['download', ...packages], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    run();
  } catch {
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'pipe'] });
      run();
    } catch (error) {
      throw new Error(`apt-get download ${packages.join(' ')} failed in ${dir}: ${String(error.stderr ?? error.message).trim()}`);
    }
  }
}

/**
 * Downloads what is missing into `<cache>/debs` and unpacks every package into `<cache>/root` (again only when the set
 * of .debs changed). Returns the directories a private nginx needs: the module objects, the libraries for
 * LD_LIBRARY_PATH, and the perl module's nginx.pm directory.
 */
export function ensureDebianModules(cache = DEFAULT_CACHE) {
  const debsDir = path.join(cache, 'debs');
  mkdirSync(debsDir, { recursive: true });
  const wanted = [...DEBIAN_MODULE_PACKAGES, ...MODULE_LIBRARIES];
  const missing = wanted.filter((pkg) => !debOf(readdirSync(debsDir), pkg));
  if (missing.length > 0) download(debsDir, missing);
  const files = readdirSync(debsDir);
  const debs = wanted.map((pkg) => debOf(files, pkg)).sort();
  const root = path.join(cache, 'root');
  const marker = path.join(root, '.unpacked');
  const stamp = debs.join('\n') + '\n';
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== stamp) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    for (const deb of debs) execFileSync('dpkg-deb', ['-x', path.join(debsDir, deb), root]);
    writeFileSync(marker, stamp);
  }
  return {
    debsDir,
    modulesDir: path.join(root, 'usr/lib/nginx/modules'),
    libraryDir: path.join(root, 'usr/lib/x86_64-linux-gnu'),
    perlDir: path.join(root, 'usr/lib/x86_64-linux-gnu/perl5/5.36'),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = ensureDebianModules(process.argv[2] ?? DEFAULT_CACHE);
  process.stdout.write(`${readdirSync(dirs.modulesDir).length} module objects in ${dirs.modulesDir}\n`);
}

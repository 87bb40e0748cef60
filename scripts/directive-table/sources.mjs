// Where the C sources come from, and what is known about the build they were compiled in.
// - nginx 1.22.1: Debian 12's orig tarball (`apt-get source --download-only nginx`), the release Debian ships.
// - later nginx releases: tags of github:nginx/nginx, read from a bare git mirror (the search tool's `fetch`).
// - third-party modules Debian packages as libnginx-mod-*: their Debian orig tarballs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Debian 12's nginx, and the configure flags of its debian/rules (1.22.1-9+deb12u9, the last .dsc still served). */
export const DEBIAN_NGINX = { version: '1.22.1', tarball: 'nginx_1.22.1.orig.tar.gz', package: 'nginx' };

/**
 * Third-party modules packaged by Debian 12, each its own source package. Those whose orig tarball the Debian mirror
 * no longer serves (auth-pam, cache-purge, memc, uploadprogress, js, nchan: 404 when this table was made) are absent.
 * `dirs`: the directories holding the module's own C sources (examples and tests left out).
 * `binaryPackages`: modules a source package builds into binary packages of other names (what users install).
 */
export const THIRD_PARTY = [
  { package: 'libnginx-mod-http-ndk', version: '0.3.2', tarball: 'libnginx-mod-http-ndk_0.3.2.orig.tar.gz', dirs: ['src'], home: 'https://github.com/vision5/ngx_devel_kit' },
  { package: 'libnginx-mod-http-lua', version: '0.10.23', tarball: 'libnginx-mod-http-lua_0.10.23.orig.tar.gz', dirs: ['src'], home: 'https://github.com/openresty/lua-nginx-module#directives' },
  { package: 'libnginx-mod-http-echo', version: '0.63', tarball: 'libnginx-mod-http-echo_0.63.orig.tar.gz', dirs: ['src'], home: 'https://github.com/openresty/echo-nginx-module#directives' },
  { package: 'libnginx-mod-http-headers-more-filter', version: '0.34', tarball: 'libnginx-mod-http-headers-more-filter_0.34.orig.tar.gz', dirs: ['src'], home: 'https://github.com/openresty/headers-more-nginx-module#directives' },
  { package: 'libnginx-mod-http-set-misc', version: '0.33', tarball: 'libnginx-mod-http-set-misc_0.33.orig.tar.gz', dirs: ['src'], home: 'https://github.com/openresty/set-misc-nginx-module#directives' },
  { package: 'libnginx-mod-http-srcache-filter', version: '0.33', tarball: 'libnginx-mod-http-srcache-filter_0.33.orig.tar.xz', dirs: ['src'], home: 'https://github.com/openresty/srcache-nginx-module#directives' },
  { package: 'libnginx-mod-http-subs-filter', version: '0.6.4', tarball: 'libnginx-mod-http-subs-filter_0.6.4.orig.tar.gz', dirs: ['.'], home: 'https://github.com/yaoweibin/ngx_http_substitutions_filter_module' },
  { package: 'libnginx-mod-http-fancyindex', version: '0.5.2', tarball: 'libnginx-mod-http-fancyindex_0.5.2.orig.tar.gz', dirs: ['.'], home: 'https://github.com/aperezdc/ngx-fancyindex#directives' },
  { package: 'libnginx-mod-http-dav-ext', version: '3.0.0', tarball: 'libnginx-mod-http-dav-ext_3.0.0.orig.tar.gz', dirs: ['.'], home: 'https://github.com/arut/nginx-dav-ext-module' },
  { package: 'libnginx-mod-http-geoip2', version: '3.4', tarball: 'libnginx-mod-http-geoip2_3.4.orig.tar.gz', dirs: ['.'], home: 'https://github.com/leev/ngx_http_geoip2_module', binaryPackages: { ngx_stream_geoip2_module: 'libnginx-mod-stream-geoip2' } },
  { package: 'libnginx-mod-http-brotli', version: '1.0.0~rc', tarball: 'libnginx-mod-http-brotli_1.0.0~rc.orig.tar.gz', dirs: ['filter', 'static'], home: 'https://github.com/google/ngx_brotli', binaryPackages: { ngx_http_brotli_filter_module: 'libnginx-mod-http-brotli-filter', ngx_http_brotli_static_module: 'libnginx-mod-http-brotli-static' } },
  { package: 'libnginx-mod-http-upstream-fair', version: '0.0~git20120408.a18b409', tarball: 'libnginx-mod-http-upstream-fair_0.0~git20120408.a18b409.orig.tar.xz', dirs: ['.'], home: 'https://github.com/itoffshore/nginx-upstream-fair' },
  { package: 'libnginx-mod-http-modsecurity', version: '1.0.3', tarball: 'libnginx-mod-http-modsecurity_1.0.3.orig.tar.gz', dirs: ['src'], home: 'https://github.com/owasp-modsecurity/ModSecurity-nginx' },
  { package: 'libnginx-mod-rtmp', version: '1.2.2+dfsg', tarball: 'libnginx-mod-rtmp_1.2.2+dfsg.orig.tar.xz', dirs: ['.', 'hls', 'dash'], home: 'https://github.com/arut/nginx-rtmp-module/wiki/Directives' },
];

/** Macros Debian's build defines (from its configure flags) or that mark a build option worth showing on an entry. */
const DEBIAN_DEFINED = [
  'NGX_HTTP_SSL', 'NGX_SSL', 'NGX_OPENSSL', 'NGX_PCRE', 'NGX_THREADS', 'NGX_HTTP_V2', 'NGX_HTTP_CACHE', 'NGX_HTTP_GZIP',
  'NGX_HTTP_SSI', 'NGX_HTTP_REALIP', 'NGX_HTTP_X_FORWARDED_FOR', 'NGX_HTTP_HEADERS', 'NGX_HTTP_DAV', 'NGX_STREAM_SSL',
  'NGX_MAIL_SSL', 'NGX_DEBUG', 'NGX_COMPAT', 'NGX_LINUX', 'NGX_HAVE_EPOLL', 'NGX_HTTP_UPSTREAM_ZONE',
  'NGX_STREAM_UPSTREAM_ZONE', 'NDK', 'NGX_HAVE_INET6', 'NGX_HAVE_UNIX_DOMAIN', 'NGX_ZLIB',
];
const NOT_DEFINED = ['NGX_WIN32', 'NGX_HTTP_DEGRADATION', 'NGX_SOLARIS', 'NGX_FREEBSD', 'NGX_DARWIN', 'T_NGX_HTTP_IMAGE_FILTER'];
/** Conditions kept on entries even though Debian's build decides them: they tell a user what the build needs. */
const MARKED = ['NGX_HTTP_SSL', 'NGX_STREAM_SSL', 'NGX_MAIL_SSL', 'NGX_SSL', 'NGX_PCRE', 'NGX_THREADS', 'NGX_HTTP_V2', 'NGX_HTTP_V3', 'NGX_QUIC', 'NGX_HTTP_CACHE', 'NGX_HTTP_GZIP', 'NGX_HTTP_SSI', 'NGX_HTTP_REALIP', 'NGX_HTTP_DAV', 'NGX_HTTP_HEADERS', 'NGX_HAVE_FILE_AIO', 'NGX_HAVE_'];

/** Build facts for sources compiled against nginx `version` ('1.22.1'). */
export function buildFacts(version) {
  const [a, b, c] = version.split('.').map(Number);
  const defined = { nginx_version: a * 1000000 + b * 1000 + c };
  for (const name of DEBIAN_DEFINED) defined[name] = 1;
  return { defined, undefinedNames: new Set(NOT_DEFINED), markedNames: MARKED };
}

export function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function cFilesUnder(root, dirs) {
  const files = {};
  for (const dir of dirs) {
    const base = path.join(root, dir);
    const walk = (d, recurse) => {
      for (const name of readdirSync(d).sort()) {
        const full = path.join(d, name);
        const rel = path.relative(root, full).split(path.sep).join('/');
        if (statSync(full).isDirectory()) {
          if (recurse && !/^(t|test|tests|examples|doc|docs|util)$/.test(name)) walk(full, true);
        } else if (/\.[ch]$/.test(name)) files[rel] = readFileSync(full, 'latin1');
      }
    };
    // A module at the tarball's top level: its own files only, not every directory beside them.
    walk(base, dir !== '.');
  }
  return files;
}

/** Unpacks a tarball into a scratch directory and returns its C files (paths without the top directory). */
export function readTarball(tarball, dirs) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'nk-directives-'));
  try {
    execFileSync('tar', ['xf', tarball, '-C', scratch, '--strip-components=1']);
    return cFilesUnder(scratch, dirs);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** nginx's src/ at a git tag of a bare mirror: every .c/.h file, read with one `git cat-file --batch`. */
export function readGitTag(gitDir, tag) {
  const commit = execFileSync('git', ['-C', gitDir, 'rev-list', '-n', '1', tag], { encoding: 'utf8' }).trim();
  const listing = execFileSync('git', ['-C', gitDir, 'ls-tree', '-r', commit, 'src'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const blobs = listing
    .split('\n')
    .map((line) => /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line))
    .filter((m) => m && /\.[ch]$/.test(m[2]))
    .map((m) => ({ id: m[1], file: m[2] }));
  const output = execFileSync('git', ['-C', gitDir, 'cat-file', '--batch'], {
    input: blobs.map((b) => b.id).join('\n') + '\n',
    maxBuffer: 256 << 20,
  });
  const files = {};
  let offset = 0;
  for (const blob of blobs) {
    const headerEnd = output.indexOf(10, offset);
    const size = Number(output.toString('latin1', offset, headerEnd).split(' ')[2]);
    files[blob.file] = output.toString('latin1', headerEnd + 1, headerEnd + 1 + size);
    offset = headerEnd + 1 + size + 1;
  }
  return { commit, files };
}

/** nginx release tags after 1.22.1 up to `newest`, in release order: mainline (odd minors), each stable x.y.0, the newest stable line's patches. */
export function releaseWalk(gitDir, newest) {
  const tags = execFileSync('git', ['-C', gitDir, 'tag', '--list', 'release-1.*'], { encoding: 'utf8' })
    .split('\n')
    .map((t) => /^release-(\d+)\.(\d+)\.(\d+)$/.exec(t.trim()))
    .filter(Boolean)
    .map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
  const [nMajor, nMinor, nPatch] = newest.split('.').map(Number);
  const key = (v) => v[0] * 1e6 + v[1] * 1e3 + v[2];
  const limit = key([nMajor, nMinor, nPatch]);
  return tags
    .filter((v) => key(v) > key([1, 22, 1]) && key(v) <= limit)
    // Stable lines fork from mainline at x.y.0; their later patches only carry fixes, except the newest stable line's
    // own (1.30.x while mainline is 1.31.x): users run those, and a fix may add a directive there.
    .filter((v) => v[1] % 2 === 1 || v[2] === 0 || v[1] === nMinor || v[1] === nMinor - (nMinor % 2))
    .sort((x, y) => key(x) - key(y))
    .map((v) => v.join('.'));
}

export function locateFile(dir, name) {
  const file = path.join(dir, name);
  return existsSync(file) ? file : undefined;
}

// nginx as distributions build it: a release plus the directives the distribution backported into it. Debian 12's
// package is nginx 1.22.1, but its security update 1.22.1-9+deb12u8 (June 2026, CVE-2026-49975) backported upstream
// 1.29.8's `max_headers` (as its own ngx_http_header_count_module, to keep the ABI): `nginx -t` of Debian's 1.22.1
// accepts it in http and server, where vanilla 1.22.1 says `unknown directive "max_headers"`. Read from the package's
// changelog.Debian and measured with its binary (test/rules/distribution-builds.test.ts).

export interface DistributionBuild {
  /** The settings value: `nginxBuild: "debian-12"`, `--nginx-build debian-12`. */
  id: string;
  /** For messages: "Debian 12". */
  label: string;
  /** The nginx release it is built from. */
  version: readonly [number, number, number];
  /** The package version that first has the backports. */
  packageVersion: string;
  /** Directives of later releases it has, with the release that added them upstream. */
  backports: ReadonlyMap<string, string>;
}

export const DISTRIBUTION_BUILDS: readonly DistributionBuild[] = [
  {
    id: 'debian-12',
    label: 'Debian 12',
    version: [1, 22, 1],
    packageVersion: '1.22.1-9+deb12u8',
    backports: new Map([['max_headers', '1.29.8']]),
  },
];

export function distributionBuild(id: string): DistributionBuild | undefined {
  return DISTRIBUTION_BUILDS.find((build) => build.id === id);
}

/** The builds of `version`'s release line (same major and minor) that backported `name`. */
export function buildsBackporting(name: string, version: readonly number[]): DistributionBuild[] {
  return DISTRIBUTION_BUILDS.filter(
    (build) => build.backports.has(name) && build.version[0] === version[0] && build.version[1] === version[1],
  );
}

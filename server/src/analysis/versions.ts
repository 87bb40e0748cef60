// The target nginx version, as the keepalive rules need it. nginx 1.29.7 changed the defaults the rules are about:
// proxy_http_version 1.1 and no `Connection: close` by default, `keepalive 32` for every explicit upstream{} block,
// `keepalive 0` valid (it disables keepalive) and the order of balancer and keepalive directives irrelevant.
// No target (options.nginxVersion undefined) means the older behaviour every distribution ships today.
//
//   MODERN_KEEPALIVE_VERSION             [1, 29, 7]
//   compareVersions(a, b)                <0, 0, >0
//   targetAtLeast(options, version)      false when no target is set
//   hasModernKeepaliveDefaults(options)  targetAtLeast(options, MODERN_KEEPALIVE_VERSION)
//   formatVersion(version)               "1.29.7"
import type { ResolvedOptions } from '../util/types.js';

export type NginxVersion = readonly [number, number, number];

export const MODERN_KEEPALIVE_VERSION: NginxVersion = [1, 29, 7];

export function compareVersions(a: NginxVersion, b: NginxVersion): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** True when the configured target is `version` or newer; with no target the pre-1.29.7 behaviour is assumed. */
export function targetAtLeast(options: Pick<ResolvedOptions, 'nginxVersion'>, version: NginxVersion): boolean {
  return options.nginxVersion !== undefined && compareVersions(options.nginxVersion, version) >= 0;
}

/**
 * True when the target sends HTTP/1.1 without `Connection: close` by default, gives explicit upstream{} blocks
 * `keepalive 32`, accepts `keepalive 0` (disabling) and no longer cares whether a balancer follows `keepalive`.
 */
export function hasModernKeepaliveDefaults(options: Pick<ResolvedOptions, 'nginxVersion'>): boolean {
  return targetAtLeast(options, MODERN_KEEPALIVE_VERSION);
}

export function formatVersion(version: NginxVersion): string {
  return version.join('.');
}

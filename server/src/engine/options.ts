// Turns the options a caller gives analyze() into the values rules read.
import type { ResolvedOptions } from '../util/types.js';
import { DISTRIBUTION_BUILDS, distributionBuild } from '../model/distribution-builds.js';
import type { AnalyzeOptions } from './types.js';

export const DEFAULT_KEEPALIVE_CONNECTIONS = 16;

/** "1.22.1" -> [1, 22, 1]; a missing minor or patch is 0 ("1.25" -> [1, 25, 0]); undefined when malformed. */
export function parseNginxVersion(version: string): [number, number, number] | undefined {
  const match = /^\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(version);
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/** Throws a RangeError for an option no rule could honour, rather than silently checking something else. */
export function resolveOptions(options: AnalyzeOptions): ResolvedOptions {
  let nginxVersion: ResolvedOptions['nginxVersion'];
  if (options.nginxVersion !== undefined) {
    nginxVersion = parseNginxVersion(options.nginxVersion);
    if (!nginxVersion) throw new RangeError(`nginxVersion must look like 1.22.1, got "${options.nginxVersion}"`);
  }
  const build = options.nginxBuild === undefined ? undefined : distributionBuild(options.nginxBuild);
  if (options.nginxBuild !== undefined) {
    if (!build) {
      const known = DISTRIBUTION_BUILDS.map((candidate) => candidate.id).join(', ');
      throw new RangeError(`nginxBuild must be one of ${known}, got "${options.nginxBuild}"`);
    }
    nginxVersion ??= [...build.version];
  }
  // A build is of one release line: with a target of another (a Dockerfile's image the editor found), its backports
  // say nothing. The CLI refuses such a pair outright (cli/run-target.ts).
  const sameLine = build !== undefined && nginxVersion !== undefined && nginxVersion[0] === build.version[0] && nginxVersion[1] === build.version[1];
  const keepaliveConnections = options.keepaliveConnections ?? DEFAULT_KEEPALIVE_CONNECTIONS;
  if (!Number.isInteger(keepaliveConnections) || keepaliveConnections < 1) {
    throw new RangeError(`keepaliveConnections must be a positive integer, got ${keepaliveConnections}`);
  }
  const resolved: ResolvedOptions = { nginxVersion, keepaliveConnections };
  if (options.extraDirectives !== undefined) resolved.extraDirectives = new Set(options.extraDirectives);
  if (build && sameLine) resolved.nginxBuild = build.id;
  return resolved;
}

// Turns the options a caller gives analyze() into the values rules read.
import type { ResolvedOptions } from '../util/types.js';
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
  const keepaliveConnections = options.keepaliveConnections ?? DEFAULT_KEEPALIVE_CONNECTIONS;
  if (!Number.isInteger(keepaliveConnections) || keepaliveConnections < 1) {
    throw new RangeError(`keepaliveConnections must be a positive integer, got ${keepaliveConnections}`);
  }
  const resolved: ResolvedOptions = { nginxVersion, keepaliveConnections };
  if (options.extraDirectives !== undefined) resolved.extraDirectives = new Set(options.extraDirectives);
  return resolved;
}

// The values of the command line's options, each parsed and checked on its own (args.ts puts them together): a bad
// value is a UsageError naming the flag and what it expects.
import { DISTRIBUTION_BUILDS, distributionBuild } from '../model/distribution-builds.js';
import path from 'node:path';
import { parseByteSize } from '../util/byte-size.js';
import { SEVERITY_SETTINGS } from '../engine/config-file.js';
import { parseNginxVersion as parseVersionTriple } from '../engine/options.js';
import { checkPathMapping } from '../util/path-map.js';
import { GIVEN_CONTEXT_NAMES, parseGivenContext, type GivenContextName } from '../engine/given-contexts.js';
import type { PathMapping, SeveritySetting } from '../util/types.js';
import { findRule } from '../rules/registry.js';

export class UsageError extends Error {}

export function parseInteger(flag: string, value: string | undefined, minimum: number, maximum: number): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < minimum || number > maximum) {
    const range = maximum === Number.MAX_SAFE_INTEGER ? `an integer >= ${minimum}` : `an integer from ${minimum} to ${maximum}`;
    throw new UsageError(`invalid ${flag} "${value}" (expected ${range})`);
  }
  return number;
}

export function parseContext(value: string | undefined): GivenContextName | undefined {
  if (value === undefined) return undefined;
  const context = parseGivenContext(value);
  if (!context) throw new UsageError(`invalid --context "${value}" (expected one of: ${GIVEN_CONTEXT_NAMES.join(', ')})`);
  return context;
}

export function parseMaxFileSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const bytes = parseByteSize(value);
  if (bytes === undefined) {
    throw new UsageError(`invalid --max-file-size "${value}" (expected a size such as 10M, 512K or 1048576, at most 512M)`);
  }
  return bytes;
}

export function parseRuleSetting(spec: string): [string, SeveritySetting] {
  const separator = spec.indexOf('=');
  const id = separator === -1 ? spec : spec.slice(0, separator);
  const value = separator === -1 ? '' : spec.slice(separator + 1);
  const setting = SEVERITY_SETTINGS.find((candidate) => candidate === value);
  if (!setting) {
    throw new UsageError(`invalid --rule "${spec}" (expected RULE=${SEVERITY_SETTINGS.join('|')}, e.g. include=off)`);
  }
  if (!findRule(id)) throw new UsageError(`unknown rule "${id}" in --rule "${spec}"`);
  return [id, setting];
}

export function parseConfigPath(value: string, cwd: string): string {
  if (value === '') throw new UsageError('--config needs a file path');
  return path.resolve(cwd, value);
}

export function parseNginxVersion(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // The core's parser, so the CLI never accepts a version that analyze() would then reject (or the reverse).
  const triple = parseVersionTriple(value);
  if (!triple) throw new UsageError(`invalid --nginx-version "${value}" (expected X.Y.Z, e.g. 1.22.1)`);
  return triple.join('.');
}

export function parseNginxBuild(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const build = distributionBuild(value);
  const known = DISTRIBUTION_BUILDS.map((candidate) => candidate.id).join(', ');
  if (!build) throw new UsageError(`invalid --nginx-build "${value}" (known: ${known})`);
  return build.id;
}

export function parsePathMapping(spec: string, cwd: string): PathMapping {
  const separator = spec.indexOf('=');
  const from = separator === -1 ? '' : spec.slice(0, separator);
  const to = separator === -1 ? '' : spec.slice(separator + 1);
  if (from === '' || to === '') {
    throw new UsageError(`invalid --path-map "${spec}" (expected FROM=TO, e.g. /etc/nginx=deploy/nginx)`);
  }
  // The settings file's own check, so a mapping is valid on the command line exactly when it is valid there.
  const checked = checkPathMapping(from, to, cwd);
  if (!checked.ok) throw new UsageError(`invalid --path-map "${spec}": ${checked.problem}`);
  return checked.mapping;
}

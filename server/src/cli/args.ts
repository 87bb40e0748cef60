// Turns argv into a Command. Knows nothing about files or analysis: every value is validated here so the rest of the
// CLI can trust the options object.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseNginxVersion as parseVersionTriple } from '../core/options.js';
import type { PathMapping } from '../core/types.js';
import { shouldUseColor, type ColorEnvironment } from './color.js';

export const OUTPUT_FORMATS = ['stylish', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Everything `check` needs. Later flags (--fix, --max-warnings, --rule, a config file) become fields here. */
export interface CheckOptions {
  /** Files, directories or quoted globs as typed; `['.']` when none were given. */
  patterns: string[];
  format: OutputFormat;
  /** Normalised to X.Y.Z; undefined means the core's default (pre-1.29.7 behaviour). */
  nginxVersion: string | undefined;
  /** `to` is already absolute (resolved against the working directory). */
  pathMap: PathMapping[];
  color: boolean;
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'check'; options: CheckOptions }
  | { kind: 'lsp' };

/** A mistake in the command line: reported as one line plus a pointer to --help, exit code 2. */
export class UsageError extends Error {}

export interface ParseEnvironment extends ColorEnvironment {
  cwd: string;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  format: { type: 'string', short: 'f' },
  'nginx-version': { type: 'string' },
  'path-map': { type: 'string', multiple: true },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  stdio: { type: 'boolean' },
} as const;

export function parseCommandLine(argv: string[], environment: ParseEnvironment): Command {
  const { values, positionals } = parseStrictly(argv);
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError('missing command (expected "check")');
  if (command === 'lsp') return { kind: 'lsp' };
  if (command !== 'check') throw new UsageError(`unknown command "${command}" (expected "check")`);
  if (values.stdio) throw new UsageError('--stdio only applies to the "lsp" command');

  return {
    kind: 'check',
    options: {
      patterns: rest.length > 0 ? rest : ['.'],
      format: parseFormat(values.format),
      nginxVersion: parseNginxVersion(values['nginx-version']),
      pathMap: (values['path-map'] ?? []).map((spec) => parsePathMapping(spec, environment.cwd)),
      color: shouldUseColor({ color: values.color, noColor: values['no-color'] }, environment),
    },
  };
}

function parseStrictly(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages go on to explain `--` at length; the first sentence is the useful part.
    const message = error instanceof Error ? error.message : String(error);
    const firstSentence = message.split(/\.\s/)[0] ?? message;
    throw new UsageError(firstSentence.charAt(0).toLowerCase() + firstSentence.slice(1));
  }
}

function parseFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return 'stylish';
  const known = OUTPUT_FORMATS.find((format) => format === value);
  if (!known) throw new UsageError(`unknown format "${value}" (expected one of: ${OUTPUT_FORMATS.join(', ')})`);
  return known;
}

function parseNginxVersion(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // The core's parser, so the CLI never accepts a version that analyze() would then reject (or the reverse).
  const triple = parseVersionTriple(value);
  if (!triple) throw new UsageError(`invalid --nginx-version "${value}" (expected X.Y.Z, e.g. 1.22.1)`);
  return triple.join('.');
}

function parsePathMapping(spec: string, cwd: string): PathMapping {
  const separator = spec.indexOf('=');
  const from = separator === -1 ? '' : spec.slice(0, separator);
  const to = separator === -1 ? '' : spec.slice(separator + 1);
  if (from === '' || to === '') {
    throw new UsageError(`invalid --path-map "${spec}" (expected FROM=TO, e.g. /etc/nginx=deploy/nginx)`);
  }
  // A trailing slash on `from` would stop `/etc/nginx/` from matching `/etc/nginx` itself.
  const trimmedFrom = from.length > 1 ? from.replace(/\/+$/, '') : from;
  return { from: trimmedFrom, to: path.resolve(cwd, to) };
}

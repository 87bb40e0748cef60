// Turns argv into a Command. Knows nothing about files or analysis: every value is validated here so the rest of the
// CLI can trust the options object.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { KEEPALIVE_CONNECTIONS_RANGE } from '../engine/config-file.js';
import type { GivenContextName } from '../engine/given-contexts.js';
import type { PathMapping, SeveritySetting } from '../util/types.js';
import {
  UsageError,
  parseConfigPath,
  parseContext,
  parseInteger,
  parseMaxFileSize,
  parseNginxBuild,
  parseNginxVersion,
  parsePathMapping,
  parseRuleSetting,
} from './option-values.js';
import { shouldUseColor, type ColorEnvironment } from './color.js';

export { OUTPUT_FORMATS, type CheckOptions, type Command, type FixMode, type FormatCommandOptions, type OutputFormat, type ProveOptions } from './command-types.js';
import { OUTPUT_FORMATS, type CheckOptions, type Command, type FixMode, type OutputFormat } from './command-types.js';

/** A mistake in the command line: reported as one line plus a pointer to --help, exit code 2. */
export { UsageError } from './option-values.js';

export interface ParseEnvironment extends ColorEnvironment {
  cwd: string;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  format: { type: 'string', short: 'f' },
  'nginx-version': { type: 'string' },
  'nginx-build': { type: 'string' },
  'path-map': { type: 'string', multiple: true },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  stdio: { type: 'boolean' },
  fix: { type: 'boolean' },
  'fix-dry-run': { type: 'boolean' },
  'max-warnings': { type: 'string' },
  rule: { type: 'string', multiple: true },
  config: { type: 'string', short: 'c' },
  'keepalive-connections': { type: 'string' },
  jobs: { type: 'string', short: 'j' },
  'max-file-size': { type: 'string' },
  context: { type: 'string' },
  'stdin-filename': { type: 'string' },
  debug: { type: 'boolean' },
  'unsafe-fixes': { type: 'boolean' },
  verbose: { type: 'boolean' },
  statistics: { type: 'boolean' },
  check: { type: 'boolean' },
  diff: { type: 'boolean' },
  'indent-style': { type: 'string' },
  'indent-width': { type: 'string' },
  requests: { type: 'string' },
  concurrency: { type: 'string' },
  nginx: { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** The options only `prove` has. */
const PROVE_ONLY_OPTIONS = ['requests', 'concurrency', 'nginx', 'timeout'] as const;
/** The check options `prove` accepts too (the rest would be silently meaningless there). */
const PROVE_COMMAND_OPTIONS: ReadonlySet<string> = new Set([
  ...PROVE_ONLY_OPTIONS, 'help', 'version', 'format', 'path-map', 'config', 'unsafe-fixes', 'max-file-size', 'color', 'no-color',
  'keepalive-connections', 'rule', 'nginx-version', 'nginx-build', 'stdin-filename',
]);
const MAX_PROVE_REQUESTS = 100_000;
const MAX_PROVE_CONCURRENCY = 256;
const MAX_PROVE_TIMEOUT_SECONDS = 3600;

/** The options `rules` and `rule` accept (the rest are check's, and would be silently meaningless there). */
const DOCS_COMMAND_OPTIONS: ReadonlySet<string> = new Set(['help', 'version', 'color', 'no-color']);

const COMMANDS = '"check", "prove", "format", "rules" or "rule <id>"';

/** The options `format` accepts. */
const FORMAT_COMMAND_OPTIONS: ReadonlySet<string> = new Set([
  'help', 'version', 'check', 'diff', 'indent-style', 'indent-width', 'stdin-filename', 'max-file-size',
]);
/** The options only `format` has: given to `check`, they would be silently meaningless. */
const FORMAT_ONLY_OPTIONS = ['check', 'diff', 'indent-style', 'indent-width'] as const;
/** Deeper indentation than this is a typo, not a style. */
const MAX_INDENT_WIDTH = 16;

/** More threads than this only adds start-up cost and memory. */
const MAX_JOBS = 64;

export function parseCommandLine(argv: string[], environment: ParseEnvironment): Command {
  const { values, positionals } = parseStrictly(argv);
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError(`missing command (expected ${COMMANDS})`);
  if (command === 'lsp') return { kind: 'lsp' };
  if (command === 'rules' || command === 'rule') return parseDocsCommand(command, rest, Object.keys(values));
  if (command === 'format') return parseFormatCommand(values, rest, environment.cwd);
  if (command === 'prove') return parseProveCommand(rest, values, environment);
  if (command !== 'check') throw new UsageError(`unknown command "${command}" (expected ${COMMANDS})`);
  const proveOnly = PROVE_ONLY_OPTIONS.find((option) => values[option] !== undefined);
  if (proveOnly !== undefined) throw new UsageError(`--${proveOnly} only applies to the "prove" command`);
  if (values.stdio) throw new UsageError('--stdio only applies to the "lsp" command');
  const formatOnly = FORMAT_ONLY_OPTIONS.find((option) => values[option] !== undefined);
  if (formatOnly !== undefined) throw new UsageError(`--${formatOnly} only applies to the "format" command`);

  return {
    kind: 'check',
    options: {
      patterns: rest.length > 0 ? rest : ['.'],
      format: parseFormat(values.format),
      nginxVersion: parseNginxVersion(values['nginx-version']),
      nginxBuild: parseNginxBuild(values['nginx-build']),
      pathMap: (values['path-map'] ?? []).map((spec) => parsePathMapping(spec, environment.cwd)),
      color: shouldUseColor({ color: values.color, noColor: values['no-color'] }, environment),
      fix: parseFixMode(values.fix, values['fix-dry-run'], values.format),
      maxWarnings: parseInteger('--max-warnings', values['max-warnings'], 0, Number.MAX_SAFE_INTEGER),
      rules: Object.fromEntries((values.rule ?? []).map(parseRuleSetting)),
      configPath: values.config === undefined ? undefined : parseConfigPath(values.config, environment.cwd),
      keepaliveConnections: parseInteger(
        '--keepalive-connections',
        values['keepalive-connections'],
        KEEPALIVE_CONNECTIONS_RANGE.minimum,
        KEEPALIVE_CONNECTIONS_RANGE.maximum,
      ),
      // One thread unless asked: threads did not pay on the 2-core machine measured (bench/RESULTS.md).
      jobs: parseInteger('--jobs', values.jobs, 1, MAX_JOBS) ?? 1,
      maxFileBytes: parseMaxFileSize(values['max-file-size']),
      context: parseContext(values.context),
      stdin: parseStdin(rest, values['stdin-filename']),
      stdinFilename: values['stdin-filename'] === undefined ? undefined : path.resolve(environment.cwd, values['stdin-filename']),
      debug: values.debug === true,
      unsafeFixes: values['unsafe-fixes'] === true,
      verbose: values.verbose === true,
      statistics: parseStatistics(values.statistics, values.format, values['fix-dry-run']),
    },
  };
}

function parseProveCommand(
  paths: string[],
  values: ReturnType<typeof parseStrictly>['values'],
  environment: ParseEnvironment,
): Command {
  const foreign = Object.keys(values).find((option) => !PROVE_COMMAND_OPTIONS.has(option));
  if (foreign !== undefined) throw new UsageError(`--${foreign} does not apply to the "prove" command`);
  const format = values.format ?? 'table';
  if (format !== 'table' && format !== 'json') throw new UsageError(`unknown format "${format}" for prove (expected table or json)`);
  const parsed = parseCommandLine(['check', ...checkArguments(values), '--', ...paths], environment);
  if (parsed.kind !== 'check') throw new UsageError('prove: unexpected arguments');
  const seconds = parseInteger('--timeout', values.timeout, 1, MAX_PROVE_TIMEOUT_SECONDS) ?? 120;
  if (values.nginx === '') throw new UsageError('--nginx needs a path to the nginx binary');
  return {
    kind: 'prove',
    options: {
      check: { ...parsed.options, unsafeFixes: values['unsafe-fixes'] === true },
      format,
      requests: parseInteger('--requests', values.requests, 1, MAX_PROVE_REQUESTS) ?? 200,
      concurrency: parseInteger('--concurrency', values.concurrency, 1, MAX_PROVE_CONCURRENCY) ?? 8,
      nginx: values.nginx === undefined ? undefined : path.resolve(environment.cwd, values.nginx),
      timeoutMs: seconds * 1000,
    },
  };
}

/** The options prove shares with check, given back to check's parser (one parse, one answer). */
function checkArguments(values: ReturnType<typeof parseStrictly>['values']): string[] {
  const out: string[] = [];
  for (const spec of values['path-map'] ?? []) out.push('--path-map', spec);
  for (const spec of values.rule ?? []) out.push('--rule', spec);
  for (const name of ['config', 'max-file-size', 'keepalive-connections', 'nginx-version', 'nginx-build'] as const) {
    const value = values[name];
    if (value !== undefined) out.push(`--${name}`, value);
  }
  if (values.color) out.push('--color');
  if (values['no-color']) out.push('--no-color');
  return out;
}

function parseFormatCommand(values: ReturnType<typeof parseStrictly>['values'], paths: string[], cwd: string): Command {
  const foreign = Object.keys(values).find((option) => !FORMAT_COMMAND_OPTIONS.has(option));
  if (foreign !== undefined) throw new UsageError(`--${foreign} does not apply to the "format" command`);
  const style = values['indent-style'];
  if (style !== undefined && style !== 'space' && style !== 'tab') {
    throw new UsageError(`invalid --indent-style "${style}" (expected space or tab)`);
  }
  return {
    kind: 'format',
    options: {
      patterns: paths.length > 0 ? paths : ['.'],
      check: values.check === true,
      diff: values.diff === true,
      indentStyle: style,
      indentWidth: parseInteger('--indent-width', values['indent-width'], 1, MAX_INDENT_WIDTH),
      stdin: parseStdin(paths, values['stdin-filename']),
      stdinFilename: values['stdin-filename'] === undefined ? undefined : path.resolve(cwd, values['stdin-filename']),
      maxFileBytes: parseMaxFileSize(values['max-file-size']),
    },
  };
}

function parseDocsCommand(command: 'rules' | 'rule', rest: string[], given: string[]): Command {
  const foreign = given.find((option) => !DOCS_COMMAND_OPTIONS.has(option));
  if (foreign !== undefined) throw new UsageError(`--${foreign} does not apply to the "${command}" command`);
  if (command === 'rules') {
    if (rest.length > 0) throw new UsageError(`"rules" takes no arguments (for one rule's page: rule ${rest[0]})`);
    return { kind: 'rules' };
  }
  if (rest.length !== 1) throw new UsageError('"rule" takes one rule id, e.g. rule upstream-keepalive ("rules" lists them)');
  return { kind: 'rule', id: rest[0]! };
}

/**
 * A count per rule printed after the human report. JSON, SARIF and GitHub output are read by programs, which count
 * for themselves, and text appended would break them; a dry run's stdout is a patch. So an error, not ignored.
 */
function parseStatistics(statistics: boolean | undefined, format: string | undefined, dryRun: boolean | undefined): boolean {
  if (!statistics) return false;
  if (dryRun) throw new UsageError('--statistics does not apply to --fix-dry-run (its output is a patch)');
  if (format !== undefined && format !== 'stylish') throw new UsageError(`--statistics only applies to the stylish format, not ${format}`);
  return true;
}

/** `-` reads one file from stdin, so it stands alone: mixed with paths, which of them would --stdin-filename name? */
function parseStdin(paths: string[], stdinFilename: string | undefined): boolean {
  const stdin = paths.includes('-');
  if (stdin && paths.length > 1) throw new UsageError('"-" (stdin) cannot be combined with other paths');
  if (stdinFilename !== undefined && !stdin) throw new UsageError('--stdin-filename only applies to "check -" (stdin)');
  if (stdinFilename === '') throw new UsageError('--stdin-filename needs a file path');
  return stdin;
}

function parseFixMode(fix: boolean | undefined, dryRun: boolean | undefined, format: string | undefined): FixMode {
  if (fix && dryRun) throw new UsageError('--fix and --fix-dry-run cannot be combined');
  // The dry run's output is a patch; a report in another format mixed into it would make it unusable.
  if (dryRun && format !== undefined) throw new UsageError('--fix-dry-run prints a unified diff; --format does not apply');
  return fix ? 'write' : dryRun ? 'dry-run' : 'off';
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


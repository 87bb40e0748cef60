// What a parsed command line is: the commands and their options, trusted by the rest of the CLI once args.ts has
// validated every value.
import type { GivenContextName } from '../engine/given-contexts.js';
import type { PathMapping, SeveritySetting } from '../util/types.js';

export const OUTPUT_FORMATS = ['stylish', 'json', 'sarif', 'github', 'gitlab', 'rdjson'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `write`: --fix; `dry-run`: --fix-dry-run (a diff, nothing written). */
export type FixMode = 'off' | 'write' | 'dry-run';

/**
 * Everything `check` needs. Settings that a `.nginx-keepalive.json` may also give are undefined (or empty) when not
 * on the command line, so the settings file can fill them in (see settings.ts).
 */
export interface CheckOptions {
  /** Files, directories or quoted globs as typed; `['.']` when none were given. */
  patterns: string[];
  format: OutputFormat;
  /** Normalised to X.Y.Z; undefined means the core's default (pre-1.29.7 behaviour). */
  nginxVersion: string | undefined;
  /** --nginx-build: a distribution's build (model/distribution-builds.ts). */
  nginxBuild: string | undefined;
  /** `to` is already absolute (resolved against the working directory). */
  pathMap: PathMapping[];
  color: boolean;
  fix: FixMode;
  /** Warnings fail the run only when there are more than this many; undefined: any warning fails it. */
  maxWarnings: number | undefined;
  /** --rule overrides, later ones winning. */
  rules: Record<string, SeveritySetting>;
  /** --config, absolute: this settings file instead of the nearest one. */
  configPath: string | undefined;
  keepaliveConnections: number | undefined;
  /** Threads analysing at once (--jobs); the findings are the same for any value. */
  jobs: number;
  /** --max-file-size in bytes; undefined: the settings file's, else the default. */
  maxFileBytes: number | undefined;
  /** --context: the top-level context of every checked file whose own comment states none (engine/given-contexts.ts). */
  context: GivenContextName | undefined;
  /** `check -`: the one file is read from stdin (cli/stdin.ts); `patterns` is then `['-']`. */
  stdin: boolean;
  /** --stdin-filename, absolute: the name the stdin file goes by (only with `-`). */
  stdinFilename: string | undefined;
  /** --debug: name on stderr each file a directory walk skipped, and why (cli/discover.ts). */
  debug?: boolean;
  /**
   * --unsafe-fixes: --fix and --fix-dry-run apply unsafe fixes too (engine/fix-safety.ts). Without --fix it still
   * counts them as fixable (JSON's fixable counts, the stylish summary): what adding --fix would then fix.
   */
  unsafeFixes: boolean;
  /** --verbose: stylish output prints each finding's detail under it. */
  verbose: boolean;
  /** --statistics: stylish output ends with the number of findings per rule. */
  statistics: boolean;
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'check'; options: CheckOptions }
  | { kind: 'lsp' }
  /** `rules`: every rule, one line each. */
  | { kind: 'rules' }
  /** `rule <id>`: the rule's documentation page; `id` as typed (an unknown one is answered with the close ones). */
  | { kind: 'rule'; id: string }
  | { kind: 'format'; options: FormatCommandOptions }
  | { kind: 'prove'; options: ProveOptions };

/**
 * `prove [paths]`: check's discovery, settings and fixes (the CheckOptions it shares), then real nginx in a sandbox
 * before and after the fixes (cli/prove/).
 */
export interface ProveOptions {
  check: CheckOptions;
  format: 'table' | 'json';
  requests: number;
  concurrency: number;
  /** --nginx: the binary; undefined: `nginx` on PATH, then /usr/sbin/nginx. */
  nginx: string | undefined;
  /** --timeout in milliseconds, for the whole run. */
  timeoutMs: number;
}

/** `format [paths] [--check] [--diff]`, as `ruff format`. */
export interface FormatCommandOptions {
  /** As check's: files, directories or quoted globs; `['.']` when none were given; `['-']` for stdin. */
  patterns: string[];
  /** --check: write nothing; exit 1 when a file would change. */
  check: boolean;
  /** --diff: write nothing; print the changes as a unified diff; exit 1 when a file would change. */
  diff: boolean;
  /** --indent-style / --indent-width: over any .editorconfig. */
  indentStyle: 'space' | 'tab' | undefined;
  indentWidth: number | undefined;
  stdin: boolean;
  stdinFilename: string | undefined;
  maxFileBytes: number | undefined;
}

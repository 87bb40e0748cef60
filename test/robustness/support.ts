// Helpers of the bad-input tests: the built CLI run on real temp trees, as root or as an unprivileged user, and its
// JSON report flattened for assertions.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CLI, useTempTrees, type CliResult } from '../cli/helpers.js';

export { CLI, useTempTrees, type CliResult };

/** Large enough for a report of tens of thousands of findings (spawnSync kills the child beyond maxBuffer). */
const MAX_OUTPUT = 512 * 1024 * 1024;

/** Runs dist/cli.js in `cwd` without the caller's color settings. */
export function runCli(cwd: string, args: string[]): CliResult {
  return spawnCli(cwd, [process.execPath, CLI, ...args]);
}

function spawnCli(cwd: string, command: string[]): CliResult {
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...env } = process.env;
  const result = spawnSync(command[0]!, command.slice(1), { cwd, encoding: 'utf8', env, maxBuffer: MAX_OUTPUT });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface Reported {
  /** Relative to the tree's root. */
  file: string;
  line: number;
  column: number;
  ruleId: string;
  message: string;
  /** The finding's particulars (full paths, where a glob stopped), when it has some. */
  detail?: string;
}

/** `check --format json` output as one row per finding, files relative to `root`. */
export function reported(root: string, stdout: string): Reported[] {
  const files = JSON.parse(stdout) as Array<{
    filePath: string;
    messages: Array<{ ruleId: string; line: number; column: number; message: string; detail?: string }>;
  }>;
  return files.flatMap((file) =>
    file.messages.map((m) => {
      const row: Reported = { file: path.relative(root, file.filePath), line: m.line, column: m.column, ruleId: m.ruleId, message: m.message };
      if (m.detail !== undefined) row.detail = m.detail;
      return row;
    }),
  );
}

/** The rule ids reported per file, for "the other files are still checked" assertions. */
export function rulesByFile(root: string, stdout: string): Record<string, string[]> {
  const byFile: Record<string, string[]> = {};
  for (const finding of reported(root, stdout)) (byFile[finding.file] ??= []).push(finding.ruleId);
  return byFile;
}

/** `nobody`: root reads a chmod 000 file anyway, so permission tests run the CLI as this user. */
export const UNPRIVILEGED = { uid: 65534, gid: 65534 };

/**
 * Runs the CLI as an unprivileged user, so that permissions really deny (as root, through setpriv, which switches
 * user and drops every supplementary group; as any other user, directly). Returns the user the run had.
 */
export function runCliUnprivileged(cwd: string, args: string[]): CliResult & { uid: number } {
  const isRoot = process.getuid?.() === 0;
  const command = isRoot
    ? ['setpriv', `--reuid=${UNPRIVILEGED.uid}`, `--regid=${UNPRIVILEGED.gid}`, '--clear-groups', '--', process.execPath, CLI, ...args]
    : [process.execPath, CLI, ...args];
  return { ...spawnCli(cwd, command), uid: isRoot ? UNPRIVILEGED.uid : process.getuid!() };
}

/** Opens a tree to other users (temp directories are 0700): directories 0755, files 0644. */
export function openToOthers(root: string): void {
  chmodSync(root, 0o755);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(full, 0o755);
    else if (entry.isFile()) chmodSync(full, 0o644);
  }
}

/** The permission bits of `file`. */
export function modeOf(file: string): number {
  return statSync(file).mode & 0o7777;
}

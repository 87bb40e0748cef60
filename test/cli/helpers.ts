// Temporary directory trees for CLI tests, and hand-made findings for the formatter tests.
import { spawnSync } from 'node:child_process';
import { afterEach } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Finding, Severity } from '../../server/src/util/types.js';

/** Creates `files` (relative path → content) under a new temp dir; returns its real absolute path. */
export function makeTree(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'nginx-keepalive-cli-'));
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** A `tree(files)` maker for one test file: every tree it makes is removed after each test. */
export function useTempTrees(): (files: Record<string, string | Buffer>) => string {
  let roots: string[] = [];
  afterEach(() => {
    roots.forEach(removeTree);
    roots = [];
  });
  return (files) => {
    const root = makeTree(files);
    roots.push(root);
    return root;
  };
}

/** A finding on one line of `text`, located by the first occurrence of `needle`. */
export function findingAt(
  file: string,
  text: string,
  needle: string,
  overrides: { severity?: Severity; ruleId?: string; message?: string; endOffset?: number } = {},
): Finding {
  const startOffset = text.indexOf(needle);
  if (startOffset === -1) throw new Error(`"${needle}" not in text`);
  const endOffset = overrides.endOffset ?? startOffset + needle.length;
  return {
    ruleId: overrides.ruleId ?? 'upstream-keepalive',
    severity: overrides.severity ?? 'warning',
    message: overrides.message ?? 'Upstream has no keepalive',
    file,
    span: { start: positionOf(text, startOffset), end: positionOf(text, endOffset), startOffset, endOffset },
  };
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) };
}

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The built CLI (test/support/global-setup.ts builds dist/ once before the tests). */
export const CLI = path.join(repoRoot, 'dist/cli.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs dist/cli.js in `cwd` without the caller's color settings, so output is plain unless a test asks. `input` is
 * piped to its stdin (`check -`); without it stdin is empty.
 */
export function runCli(cwd: string, args: string[], env: Record<string, string> = {}, input?: string | Buffer): CliResult {
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...inherited, ...env },
    input: input ?? '',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `check --format json …` run in `cwd`: each reported file (relative to `cwd`) with its findings as sorted "rule@line". */
export function checkRuleLines(cwd: string, args: string[]): Record<string, string[]> {
  type Report = { filePath: string; messages: { ruleId: string; line: number }[] };
  const reports = JSON.parse(runCli(cwd, ['check', '--format', 'json', ...args]).stdout) as Report[];
  return Object.fromEntries(
    reports.map((report) => [path.relative(cwd, report.filePath), report.messages.map((m) => `${m.ruleId}@${m.line}`).sort()]),
  );
}

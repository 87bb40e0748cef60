// Temporary directory trees for CLI tests, and hand-made findings for the formatter tests.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Finding, Severity } from '../../server/src/core/types.js';

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

// The configs the playground is checked on, against the CLI: the plain and Dokku examples, and an Ansible role's
// Jinja2 template from the corpus (test/corpus/ATTRIBUTION.md). Shared by the core's test and the page's e2e.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkRuleLines, runCli } from '../cli/helpers.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface PlaygroundCase {
  fileName: string;
  /** Repository-relative. */
  source: string;
  nginxVersion: string;
}

export const PLAYGROUND_CASES: readonly PlaygroundCase[] = [
  { fileName: 'nginx.conf', source: 'examples/plain/nginx.conf', nginxVersion: '1.22.1' },
  { fileName: 'nginx.conf.sigil', source: 'examples/dokku/nginx.conf.sigil', nginxVersion: '1.22.1' },
  { fileName: 'nginx.conf.j2', source: 'test/corpus/jinja/geerlingguy__ansible-role-nginx__templates__nginx.conf.j2', nginxVersion: '1.24.0' },
];

export function caseText(entry: PlaygroundCase): string {
  return readFileSync(path.join(repoRoot, entry.source), 'utf8');
}

/** The CLI's findings as sorted "rule@line" and what --fix writes, for `text` saved as `fileName` in a directory of its own. */
export function cliVerdict(text: string, fileName: string, nginxVersion: string): { findings: string[]; fixed: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-playground-'));
  try {
    const file = path.join(dir, fileName);
    writeFileSync(file, text);
    const findings = checkRuleLines(dir, ['--nginx-version', nginxVersion, fileName])[fileName] ?? [];
    runCli(dir, ['check', '--fix', '--nginx-version', nginxVersion, fileName]);
    return { findings, fixed: readFileSync(file, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

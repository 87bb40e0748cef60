// Messages are one-line headlines under 100 characters that say what is wrong and what to do (the Problems panel
// cuts a message at about 70; the why lives in the details and the rule docs). Checked on everything the CLI
// reports for the real-world corpus and the fixtures, for nginx 1.22 and 1.30, through the built CLI.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..');
const cli = path.join(repoRoot, 'dist/cli.js');

interface JsonMessage {
  ruleId: string;
  message: string;
  line: number;
}

function messagesOf(target: string, nginxVersion: string): Array<JsonMessage & { file: string }> {
  const result = spawnSync(process.execPath, [cli, 'check', '--format', 'json', '--nginx-version', nginxVersion, target], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const reports = JSON.parse(result.stdout) as Array<{ filePath: string; messages: JsonMessage[] }>;
  return reports.flatMap((report) => report.messages.map((message) => ({ ...message, file: path.relative(repoRoot, report.filePath) })));
}

describe('finding headlines', () => {
  for (const nginxVersion of ['1.22.1', '1.30.0']) {
    it(`are one line under 100 characters on the corpus and the fixtures, for nginx ${nginxVersion}`, () => {
      const messages = [...messagesOf('test/corpus', nginxVersion), ...messagesOf('test/fixtures', nginxVersion)];
      const rules = new Set(messages.map((message) => message.ruleId));
      // Not vacuous: every kind of finding is among them.
      expect(rules.size).toBeGreaterThanOrEqual(nginxVersion === '1.22.1' ? 11 : 10);
      const long = messages
        .filter((message) => message.message.length >= 100 || message.message.includes('\n'))
        .map((message) => `${message.file}:${message.line} ${message.ruleId} (${message.message.length}): ${message.message}`);
      expect(long).toEqual([]);
    });
  }
});

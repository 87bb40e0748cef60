// The `check` command: discover, read, analyze, format, exit code. All judgement lives in the core's analyze().
import { analyze } from '../core/analyze.js';
import type { Finding } from '../core/types.js';
import type { CheckOptions, OutputFormat } from './args.js';
import { discoverFiles } from './discover.js';
import { EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, type ExitCode } from './exit-codes.js';
import { formatJson } from './format-json.js';
import { formatStylish } from './format-stylish.js';
import { readDocuments } from './read-documents.js';
import { groupByFile, type FileReport } from './report.js';

export interface CheckIo {
  cwd: string;
  stdout(text: string): void;
  /** One message per call, without the program-name prefix. */
  stderrLine(message: string): void;
}

export async function runCheck(options: CheckOptions, io: CheckIo): Promise<ExitCode> {
  const discovery = discoverFiles(options.patterns, io.cwd);
  const read = readDocuments(discovery.files, io.cwd);
  const errors = [...discovery.errors, ...read.errors];
  for (const line of [...errors, ...discovery.notes, ...read.notes]) io.stderrLine(line);

  const findings =
    read.documents.length === 0
      ? []
      : await analyze(read.documents, {
          nginxVersion: options.nginxVersion,
          pathMap: options.pathMap,
          readRoots: discovery.readRoots,
        });
  const reports = groupByFile(read.documents, findings, io.cwd);
  io.stdout(format(options.format, reports, options, io.cwd));

  if (errors.length > 0) return EXIT_FAILURE;
  return findings.some(failsTheRun) ? EXIT_FINDINGS : EXIT_CLEAN;
}

function format(kind: OutputFormat, reports: FileReport[], options: CheckOptions, cwd: string): string {
  switch (kind) {
    case 'stylish':
      return formatStylish(reports, { cwd, color: options.color });
    case 'json':
      return formatJson(reports);
  }
}

function failsTheRun(finding: Finding): boolean {
  return finding.severity === 'error' || finding.severity === 'warning';
}

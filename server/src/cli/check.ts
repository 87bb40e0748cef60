// The `check` command: settings, discover, read, analyze (or fix), format, exit code. All judgement lives in the
// core's analyze() and fixAll().
import { ConfigError } from '../core/config-file.js';
import type { AnalyzeOptions, Finding, PathMapping, SourceDocument } from '../core/types.js';
import { createReadScope } from '../model/read-scope.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { CheckOptions, OutputFormat } from './args.js';
import { discoverFiles } from './discover.js';
import { EXIT_FAILURE, type ExitCode } from './exit-codes.js';
import { exitStatus } from './exit-status.js';
import { runFix } from './fix-run.js';
import { formatGithub } from './format-github.js';
import { formatJson } from './format-json.js';
import { formatSarif } from './format-sarif.js';
import { formatStylish } from './format-stylish.js';
import { analyzeWithJobs } from './parallel/analyze-parallel.js';
import { displayPath } from './paths.js';
import { readDocuments } from './read-documents.js';
import { groupByFile, type FileReport } from './report.js';
import { mappingsOutsideRoots, resolveSettings, type RunSettings } from './settings.js';

export interface CheckIo {
  cwd: string;
  stdout(text: string): void;
  /** One message per call, without the program-name prefix. */
  stderrLine(message: string): void;
}

export async function runCheck(options: CheckOptions, io: CheckIo): Promise<ExitCode> {
  const settings = loadSettings(options, io);
  if (!settings) return EXIT_FAILURE;
  const discovery = discoverFiles(options.patterns, io.cwd);
  const refused = mappingsOutsideRoots(settings, discovery.readRoots);
  if (refused.length > 0) {
    for (const mapping of refused) io.stderrLine(refusalLine(mapping, settings.configFile!, io.cwd));
    return EXIT_FAILURE;
  }
  const read = readDocuments(discovery.files, io.cwd, { maxFileBytes: settings.analyze.maxFileBytes });
  const errors = [...discovery.errors, ...read.errors];
  for (const line of [...settings.notes, ...errors, ...discovery.notes, ...read.notes]) io.stderrLine(line);

  const analyzeOptions: AnalyzeOptions = { ...settings.analyze, readRoots: discovery.readRoots };
  let findings: Finding[];
  let documents: SourceDocument[] = read.documents;
  let failed = errors.length > 0;
  if (options.fix === 'off') {
    findings = documents.length === 0 ? [] : await analyzeWithJobs(documents, analyzeOptions, options.jobs);
  } else {
    const fixed = await runFix(options.fix, documents, { analyzeOptions, roots: discovery.readRoots, io });
    ({ findings, documents } = fixed);
    failed ||= fixed.failed;
  }
  // A dry run's stdout is the patch alone.
  if (options.fix !== 'dry-run') {
    // Code frames show text only from where the user said reading is fine: the checked paths and --path-map targets.
    const shown = createReadScope([...discovery.readRoots, ...options.pathMap.map((mapping) => mapping.to)]);
    const reports = groupByFile(documents, findings, io.cwd, {
      mayShow: (file) => shown.allows(file),
      maxFileBytes: settings.analyze.maxFileBytes,
    });
    io.stdout(format(options.format, reports, options, io.cwd));
  }

  const status = exitStatus(findings, failed, options.maxWarnings);
  if (status.note) io.stderrLine(status.note);
  return status.code;
}

/** Undefined (after saying why) when the settings file is invalid: checking with half the settings would mislead. */
function loadSettings(options: CheckOptions, io: CheckIo): RunSettings | undefined {
  try {
    return resolveSettings(options, io.cwd);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderrLine(`${displayPath(error.file, io.cwd)}: ${error.detail}`);
    return undefined;
  }
}

function refusalLine(mapping: PathMapping, configFile: string, cwd: string): string {
  return (
    `${displayPath(configFile, cwd)}: "pathMap.${mapping.from}": ${displayPath(mapping.to, cwd)} is outside the checked ` +
    `paths, and a settings file may only map into them (to read it, pass --path-map ${mapping.from}=<dir>)`
  );
}

function format(kind: OutputFormat, reports: FileReport[], options: CheckOptions, cwd: string): string {
  switch (kind) {
    case 'stylish':
      return formatStylish(reports, { cwd, color: options.color });
    case 'json':
      return formatJson(reports);
    case 'sarif':
      return formatSarif(reports, { cwd, rules: registeredRules.map((rule) => rule.meta) });
    case 'github':
      return formatGithub(reports, cwd);
  }
}

// The `check` command: settings, discover, read, analyze (or fix), format, exit code. All judgement lives in the
// core's analyze() and fixAll().
import { ConfigError } from '../engine/config-file.js';
import type { Finding, PathMapping, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { createReadScope } from '../model/read-scope.js';
import { rules as registeredRules } from '../rules/registry.js';
import type { CheckOptions, OutputFormat } from './args.js';
import { discoverFiles, type SkippedPath } from './discover.js';
import { checkDumps, fixRefusal, separateDumps } from './dump.js';
import { EXIT_FAILURE, type ExitCode } from './exit-codes.js';
import { exitStatus } from './exit-status.js';
import { runFix } from './fix-run.js';
import { formatGithub } from './format-github.js';
import { formatJson } from './format-json.js';
import { formatRdjson } from './format-rdjson.js';
import { formatSarif } from './format-sarif.js';
import { formatStylish } from './format-stylish.js';
import { formatStatistics } from './format-statistics.js';
import { analyzeWithJobs } from './parallel/analyze-parallel.js';
import { displayPath } from '../util/paths.js';
import { readDocuments } from './read-documents.js';
import { groupByFile, type FileReport } from './report.js';
import { describeRunTarget, runAnalyzeOptions } from './run-target.js';
import type { NginxTarget } from '../engine/nginx-target.js';
import { mappingsOutsideRoots, resolveSettings, type RunSettings } from './settings.js';
import { fixStdin } from './stdin-fix.js';
import { readStdinDocuments, stdinDiscovery, stdinPath, waitingNote } from './stdin.js';

export interface CheckIo {
  cwd: string;
  stdout(text: string): void;
  /** One message per call, without the program-name prefix. */
  stderrLine(message: string): void;
  /** Raw text to stderr: the report of `check - --fix`, whose stdout is the fixed file. Default: stderrLine per line. */
  stderr?(text: string): void;
}

export async function runCheck(options: CheckOptions, io: CheckIo): Promise<ExitCode> {
  const settings = loadSettings(options, io);
  if (!settings) return EXIT_FAILURE;
  const discovery = options.stdin ? stdinDiscovery(options, io.cwd) : discoverFiles(options.patterns, io.cwd);
  const refused = mappingsOutsideRoots(settings, discovery.readRoots);
  if (refused.length > 0) {
    for (const mapping of refused) io.stderrLine(refusalLine(mapping, settings.configFile!, io.cwd));
    return EXIT_FAILURE;
  }
  const read = options.stdin
    ? await readStdinDocuments(options, io.cwd, settings.analyze.maxFileBytes, () => io.stderrLine(waitingNote()), options.fix === 'write')
    : readDocuments(discovery.files, io.cwd, {
        maxFileBytes: settings.analyze.maxFileBytes,
        alreadyRead: discovery.alreadyRead,
        realPaths: discovery.realPaths,
      });
  const errors = [...discovery.errors, ...read.errors];
  for (const line of [...settings.notes, ...errors, ...discovery.notes, ...read.notes]) io.stderrLine(line);
  // --debug: what the walks left out and why, so a config under an unexpected name can be found (and passed by name).
  const skipped = discovery.skipped ?? [];
  if (options.debug) for (const entry of skipped) io.stderrLine(skippedLine(entry, io.cwd));

  // The nginx version (flag, settings, a Dockerfile, default) and --context / "contexts" (run-target.ts).
  const run = runAnalyzeOptions({
    options,
    settings,
    readRoots: discovery.readRoots,
    documents: read.documents.map((document) => document.path),
    containerFiles: discovery.containerFiles,
    cwd: io.cwd,
  });
  const analyzeOptions: AnalyzeOptions = { ...settings.analyze, readRoots: discovery.readRoots, ...run };
  // nginx -T dumps are checked apart, each as the configuration it holds (dump.ts); --fix has nothing to write there.
  const { plain, dumps } = separateDumps(read.documents);
  const refusedDumps = options.fix === 'write' ? dumps.splice(0) : [];
  for (const dump of refusedDumps) io.stderrLine(fixRefusal(dump, io.cwd));
  if (refusedDumps.length > 0 && plain.length === 0) return EXIT_FAILURE;
  // `check - --fix`: stdout is the fixed text, so the report goes to stderr.
  const fixedToStdout = options.stdin && options.fix === 'write';
  let findings: Finding[];
  let documents: SourceDocument[] = plain;
  let failed = errors.length > 0 || refusedDumps.length > 0;
  // --fix stopped at its pass limit (fix-run.ts says so on stderr): the run fails.
  let unsettled = false;
  const unsafe = options.unsafeFixes;
  if (options.fix === 'off') {
    findings = documents.length === 0 ? [] : await analyzeWithJobs(documents, analyzeOptions, options.jobs, { fixes: readsFixes(options.format) });
  } else if (fixedToStdout) {
    const fixed = documents[0] ? await fixStdin(documents[0], analyzeOptions, io, unsafe) : { findings: [], documents, hitPassLimit: false };
    ({ findings, documents } = fixed);
    unsettled = fixed.hitPassLimit;
  } else {
    const fixed = await runFix(options.fix, documents, { analyzeOptions, roots: discovery.readRoots, io, unsafe });
    ({ findings, documents } = fixed);
    failed ||= fixed.failed;
    unsettled = fixed.hitPassLimit;
  }
  if (dumps.length > 0) {
    const dumped = await checkDumps(dumps, options.fix, { ...settings.analyze, nginxVersion: run.nginxVersion }, io, unsafe);
    findings = findings.concat(dumped.findings);
    documents = documents.concat(dumped.documents);
    unsettled ||= dumped.hitPassLimit;
  }
  // A dry run's stdout is the patch alone.
  if (options.fix !== 'dry-run') {
    // Code frames show text only from where the user said reading is fine: the checked paths and --path-map targets.
    const shown = createReadScope([...discovery.readRoots, ...options.pathMap.map((mapping) => mapping.to)]);
    const reports = groupByFile(documents, findings, io.cwd, {
      mayShow: (file) => shown.allows(file),
      maxFileBytes: settings.analyze.maxFileBytes,
    });
    const skippedFiles = skipped.filter((entry) => !entry.directory).length;
    const report = await format(options.format, reports, options, io.cwd, run.nginxTarget, skippedFiles);
    if (!fixedToStdout) io.stdout(report);
    else if (io.stderr) io.stderr(report);
    else for (const line of report.split('\n')) if (line !== '') io.stderrLine(line);
  }

  const status = exitStatus(findings, failed, options.maxWarnings, unsettled);
  if (status.note) io.stderrLine(status.note);
  return status.code;
}

/** Undefined (after saying why) when the settings file is invalid: checking with half the settings would mislead. */
function loadSettings(options: CheckOptions, io: CheckIo): RunSettings | undefined {
  try {
    // stdin's settings are the nearest to its --stdin-filename (else to the working directory), as for a file.
    return resolveSettings(options.stdin ? { ...options, patterns: [stdinPath(options, io.cwd)] } : options, io.cwd);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderrLine(`${displayPath(error.file, io.cwd)}: ${error.detail}`);
    return undefined;
  }
}

function skippedLine(entry: SkippedPath, cwd: string): string {
  const shown = displayPath(entry.path, cwd);
  return `debug: skipped ${entry.directory ? `${shown}/` : shown}: ${entry.reason}`;
}

function refusalLine(mapping: PathMapping, configFile: string, cwd: string): string {
  return (
    `${displayPath(configFile, cwd)}: "pathMap.${mapping.from}": ${displayPath(mapping.to, cwd)} is outside the checked ` +
    `paths, and a settings file may only map into them (to read it, pass --path-map ${mapping.from}=<dir>)`
  );
}

async function format(
  kind: OutputFormat,
  reports: FileReport[],
  options: CheckOptions,
  cwd: string,
  target?: NginxTarget,
  skipped = 0,
): Promise<string> {
  switch (kind) {
    case 'stylish': {
      const stylish = { cwd, color: options.color, target: describeRunTarget(target, cwd), skipped, verbose: options.verbose, unsafeFixes: options.unsafeFixes };
      const report = formatStylish(reports, stylish);
      return options.statistics ? report + formatStatistics(reports, stylish) : report;
    }
    case 'json':
      return formatJson(reports, { unsafeFixes: options.unsafeFixes });
    case 'sarif':
      return formatSarif(reports, { cwd, rules: registeredRules.map((rule) => rule.meta), nginxTarget: target });
    case 'github':
      return formatGithub(reports, cwd);
    case 'gitlab': {
      // Loaded when asked: its node:crypto (the fingerprints) costs every other run start-up time.
      const { formatGitlab } = await import('./format-gitlab.js');
      return formatGitlab(reports, cwd);
    }
    case 'rdjson':
      return formatRdjson(reports, { cwd, rules: registeredRules.map((rule) => rule.meta), unsafeFixes: options.unsafeFixes });
  }
}

/** The formats that print fixes' edits: only they have the analysis build them (in the workers, with --jobs). */
function readsFixes(kind: OutputFormat): boolean {
  return kind === 'sarif' || kind === 'rdjson';
}

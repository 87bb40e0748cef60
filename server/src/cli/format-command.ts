// `nginx-keepalive format [paths] [--check] [--diff]`, as `ruff format`: rewrites the files in place (atomically,
// through write-fixes.ts, with --fix's guards), or with --check only says which would change (exit 1), or with
// --diff prints the changes as a patch (exit 1 when there are any). `format -` formats stdin to stdout.
// A file with a syntax error is not formatted: an error names where, and the run exits 2 (the others are still
// formatted). Files are found as `check` finds them (discover.ts).
import path from 'node:path';
import type { FormatCommandOptions } from './args.js';
import { discoverFiles } from './discover.js';
import { EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, type ExitCode } from './exit-codes.js';
import { readDocuments } from './read-documents.js';
import { readStdinDocuments, stdinPath, waitingNote } from './stdin.js';
import { unifiedDiff } from '../util/unified-diff.js';
import { isNginxDump } from '../engine/nginx-dump.js';
import { writeFixedFile, WriteRefused } from './write-fixes.js';
import { editorConfigFor, mergeFormatOptions, MAX_EDITORCONFIG_BYTES } from '../features/format-editorconfig.js';
import { formatDocument, type FormatOptions } from '../features/format.js';
import { loadSyntaxChecker } from '../engine/syntax-check.js';
import { createReadScope, isUnder } from '../model/read-scope.js';
import { loadNginxParser, type NginxParser } from '../parser/loader.js';
import { readRegularFile } from '../util/read-file.js';
import { displayPath, relativeIfInside } from '../util/paths.js';
import type { SourceDocument } from '../util/types.js';

export interface FormatIo {
  cwd: string;
  stdout(text: string): void;
  stderrLine(message: string): void;
}

interface Tally {
  changed: number;
  unchanged: number;
  failed: boolean;
}

/**
 * The options for one file: the flags, then the nearest .editorconfig, then the defaults. .editorconfig files are
 * read only inside `roots` (the checked paths and the working directory), never through a link leading out of them.
 */
function optionsResolver(options: FormatCommandOptions, roots: readonly string[]): (file: string) => FormatOptions {
  const flags: Partial<FormatOptions> = { indentStyle: options.indentStyle, indentSize: options.indentWidth };
  if (options.indentStyle === 'tab' && options.indentWidth !== undefined) flags.tabWidth = options.indentWidth;
  const scope = createReadScope(roots);
  const read = (file: string) => {
    if (!scope.allows(file)) return undefined;
    const result = readRegularFile(file, MAX_EDITORCONFIG_BYTES);
    return result.kind === 'read' ? result.bytes.toString('utf8') : undefined;
  };
  return (file) => {
    // The outermost root holding the file: the working directory for a file inside it, else its checked path.
    const boundary = roots.filter((root) => isUnder(file, root)).sort((a, b) => a.length - b.length)[0] ?? path.dirname(file);
    return mergeFormatOptions(flags, editorConfigFor(file, boundary, read));
  };
}

function summary(tally: Tally, options: FormatCommandOptions): string {
  const files = (count: number) => `${count} file${count === 1 ? '' : 's'}`;
  const dryRun = options.check || options.diff;
  const changed = dryRun ? `${files(tally.changed)} would be reformatted` : `${files(tally.changed)} reformatted`;
  const unchanged = dryRun ? `${files(tally.unchanged)} already formatted` : `${files(tally.unchanged)} left unchanged`;
  return [tally.changed > 0 ? changed : '', tally.unchanged > 0 ? unchanged : ''].filter(Boolean).join(', ');
}

function exitCode(tally: Tally, options: FormatCommandOptions): ExitCode {
  if (tally.failed) return EXIT_FAILURE;
  return (options.check || options.diff) && tally.changed > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
}

/** git's `a/` and `b/` prefixes for paths under the working directory, so `git apply` and `patch -p1` take it. */
function diffOf(file: string, original: string, formatted: string, cwd: string): string {
  const shown = relativeIfInside(file, cwd);
  const [oldName, newName] = path.isAbsolute(shown) ? [shown, shown] : [`a/${shown}`, `b/${shown}`];
  return unifiedDiff(original, formatted, oldName, newName);
}

/**
 * A saved `nginx -T` dump is several files in one, with nginx's markers between them: formatted as one file, its
 * markers and its files' boundaries would be re-indented as if they were one configuration. It is refused (not split:
 * its files are on the server, where they are formatted).
 */
function dumpRefusal(shown: string): string {
  return `${shown}: not formatted: an nginx -T dump (several files in one); format the files themselves`;
}

export async function runFormat(options: FormatCommandOptions, io: FormatIo): Promise<ExitCode> {
  const parser = await loadNginxParser();
  return options.stdin ? formatStdin(parser, options, io) : formatFiles(parser, options, io);
}

async function formatStdin(parser: NginxParser, options: FormatCommandOptions, io: FormatIo): Promise<ExitCode> {
  const file = stdinPath(options, io.cwd);
  const rewrites = !options.check && !options.diff;
  const read = await readStdinDocuments(options, io.cwd, options.maxFileBytes, () => io.stderrLine(waitingNote()), rewrites);
  read.errors.forEach(io.stderrLine);
  read.notes.forEach(io.stderrLine);
  const document = read.documents[0];
  if (!document) return read.errors.length > 0 ? EXIT_FAILURE : EXIT_CLEAN;
  const resolve = optionsResolver(options, [...new Set([path.dirname(file), io.cwd])]);
  const shown = displayPath(file, io.cwd);
  if (isNginxDump(document.text)) {
    io.stderrLine(dumpRefusal(shown));
    return EXIT_FAILURE;
  }
  const result = formatDocument(parser, file, document.text, resolve(file));
  if (result.kind === 'refused') {
    io.stderrLine(`${shown}:${result.line}:${result.column}: not formatted: ${result.reason}`);
    return EXIT_FAILURE;
  }
  const changed = result.text !== document.text;
  if (options.diff) io.stdout(diffOf(file, document.text, result.text, io.cwd));
  else if (options.check) {
    if (changed) io.stderrLine(`would reformat: ${shown}`);
  } else io.stdout(result.text);
  return exitCode({ changed: changed ? 1 : 0, unchanged: changed ? 0 : 1, failed: false }, options);
}

async function formatFiles(parser: NginxParser, options: FormatCommandOptions, io: FormatIo): Promise<ExitCode> {
  const discovery = discoverFiles(options.patterns, io.cwd);
  const read = readDocuments(discovery.files, io.cwd, { maxFileBytes: options.maxFileBytes });
  const errors = [...discovery.errors, ...read.errors];
  for (const line of [...discovery.notes, ...read.notes]) io.stderrLine(line);
  const roots = [...new Set([...discovery.readRoots, io.cwd])];
  const resolve = optionsResolver(options, roots);
  const isClean = options.check || options.diff ? undefined : await loadSyntaxChecker();
  const tally: Tally = { changed: 0, unchanged: 0, failed: errors.length > 0 };
  // Patches and "would reformat" lines go to stdout; errors to stderr, each as it happens.
  const out: string[] = [];
  for (const document of read.documents) {
    const outcome = formatOne(parser, document, resolve(document.path), options, io.cwd, (text) => {
      // Written only inside the checked paths (not the working directory), and only a text that parses cleanly.
      writeFixedFile({ path: document.path, original: document.text, fixed: text }, { roots: discovery.readRoots, isClean: isClean! });
    });
    if (outcome.error) errors.push(outcome.error);
    else if (outcome.changed) tally.changed++;
    else tally.unchanged++;
    if (outcome.output) out.push(outcome.output);
  }
  tally.failed ||= errors.length > 0;
  io.stdout(out.join(''));
  errors.forEach(io.stderrLine);
  const line = summary(tally, options);
  if (line !== '') {
    // With --diff stdout is a patch: the summary must not end up in it.
    if (options.diff) io.stderrLine(line);
    else io.stdout(`${line}\n`);
  }
  return exitCode(tally, options);
}

interface Outcome {
  changed: boolean;
  error?: string;
  output?: string;
}

function formatOne(
  parser: NginxParser,
  document: SourceDocument,
  options: FormatOptions,
  command: FormatCommandOptions,
  cwd: string,
  write: (text: string) => void,
): Outcome {
  const shown = displayPath(document.path, cwd);
  if (isNginxDump(document.text)) return { changed: false, error: dumpRefusal(shown) };
  const result = formatDocument(parser, document.path, document.text, options);
  if (result.kind === 'refused') return { changed: false, error: `${shown}:${result.line}:${result.column}: not formatted: ${result.reason}` };
  if (result.text === document.text) return { changed: false };
  if (command.diff) return { changed: true, output: diffOf(document.path, document.text, result.text, cwd) };
  if (command.check) return { changed: true, output: `would reformat: ${shown}\n` };
  try {
    write(result.text);
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    return { changed: false, error: `${shown}: ${error.message}` };
  }
  return { changed: true };
}

// `nginx -T` dumps among the checked documents (piped to `check -`, or saved to a file and named or walked into).
// A dump is known by its content, never its name (engine/nginx-dump.ts), and is checked as the configuration it holds:
// its files, main configuration first, each under the absolute path nginx read it from, with includes resolved among
// them alone (model/virtual-host.ts). So findings name the server's paths and lines, the same as checking those files
// themselves would, and nothing on this machine's disk is read, tested or mapped for a dump's includes.
import { analyze } from '../engine/analyze.js';
import { splitNginxDump } from '../engine/nginx-dump.js';
import type { Finding, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { createVirtualHost, VIRTUAL_READ_SCOPE } from '../model/virtual-host.js';
import type { FixMode } from './args.js';
import type { CheckIo } from './check.js';
import { runFix } from './fix-run.js';
import { displayPath } from '../util/paths.js';

export interface Dump {
  /** The document the dump was read from (a saved dump's path, or stdin's name). */
  source: string;
  /** Its files, the main configuration first. */
  files: SourceDocument[];
}

export interface DumpSplit {
  /** The documents that are configuration files themselves. */
  plain: SourceDocument[];
  dumps: Dump[];
}

export function separateDumps(documents: readonly SourceDocument[]): DumpSplit {
  const split: DumpSplit = { plain: [], dumps: [] };
  for (const document of documents) {
    const dump = splitNginxDump(document.text);
    if (dump) split.dumps.push({ source: document.path, files: dump.files });
    else split.plain.push(document);
  }
  return split;
}

/**
 * The run's options for one dump: its own host, and no --path-map (a dump's paths are already the server's; mapping
 * them would send includes to the local disk). The read roots do not apply: the host holds only the dump. The first
 * file is nginx's -c file, so its top level is main whatever it holds; contexts given for local paths do not apply.
 */
export function dumpAnalyzeOptions(base: AnalyzeOptions, dump: Dump): AnalyzeOptions {
  const { readRoots: _readRoots, pathMap: _pathMap, contexts: _contexts, ...rest } = base;
  const main = dump.files[0]?.path;
  return { ...rest, host: createVirtualHost(dump.files), ...(main === undefined ? {} : { contexts: { [main]: 'main' } }) };
}

/** `--fix` writes files, and a dump's files are on another machine: one line saying so (the run exits 2). */
export function fixRefusal(dump: Dump, cwd: string): string {
  return (
    `${displayPath(dump.source, cwd)}: an nginx -T dump; --fix has nothing to write (its files are on the server), ` +
    'use --fix-dry-run for a patch against their paths'
  );
}

export interface DumpCheck {
  findings: Finding[];
  /** The dumps' files, for the report (code frames show the dump's text). */
  documents: SourceDocument[];
  /** A dry run's fixAll stopped at its pass limit (said on stderr already). */
  hitPassLimit: boolean;
}

/**
 * Analyzes each dump on its own (two dumps of two servers may name the same paths), or for `dry-run` prints each
 * one's patch. `write` is refused before this (fixRefusal). Single-threaded: a worker cannot take a host.
 */
export async function checkDumps(
  dumps: readonly Dump[],
  mode: FixMode,
  base: AnalyzeOptions,
  io: CheckIo,
  unsafe = false,
): Promise<DumpCheck> {
  const result: DumpCheck = { findings: [], documents: [], hitPassLimit: false };
  // Two dumps of one server (`nginx -T > a`, later `> b`) name the same files: report each finding once.
  const seen = new Set<string>();
  for (const dump of dumps) {
    const options = dumpAnalyzeOptions(base, dump);
    let findings: Finding[];
    if (mode === 'dry-run') {
      const run = await runFix('dry-run', dump.files, { analyzeOptions: options, roots: [], scope: VIRTUAL_READ_SCOPE, io, unsafe });
      findings = run.findings;
      result.hitPassLimit ||= run.hitPassLimit;
    } else {
      findings = await analyze(dump.files, options);
    }
    // Loops, not spreading into push: a dump may hold thousands of files and findings.
    for (const finding of findings) {
      const key = `${finding.ruleId}\0${finding.file}\0${finding.span.startOffset}\0${finding.span.endOffset}\0${finding.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      result.findings.push(finding);
    }
    for (const file of dump.files) result.documents.push(file);
  }
  return result;
}

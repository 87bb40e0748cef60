// `prove`'s input: the configuration `check` would read (its discovery, settings, includes and --path-map; stdin and
// nginx -T dumps as `check -` reads them), as written and as `check --fix` would write it (fixAll, in memory).
import path from 'node:path';
import { ConfigError } from '../../engine/config-file.js';
import { analyzeWorkspace } from '../../engine/analyze.js';
import { fixAll } from '../../engine/fix-all.js';
import type { AnalyzeOptions } from '../../engine/types.js';
import { createReadScope } from '../../model/read-scope.js';
import { VIRTUAL_READ_SCOPE } from '../../model/virtual-host.js';
import { rules as registeredRules } from '../../rules/registry.js';
import { displayPath } from '../../util/paths.js';
import type { Finding, SourceDocument } from '../../util/types.js';
import type { ProveOptions } from '../args.js';
import { discoverFiles } from '../discover.js';
import { dumpAnalyzeOptions, separateDumps } from '../dump.js';
import { readDocuments } from '../read-documents.js';
import { mappingsOutsideRoots, resolveSettings } from '../settings.js';
import { readStdinDocuments, stdinDiscovery, waitingNote } from '../stdin.js';
import type { ProveIo } from './prove-command.js';

export interface Inputs {
  before: Awaited<ReturnType<typeof analyzeWorkspace>>['workspace'];
  after: Awaited<ReturnType<typeof analyzeWorkspace>>['workspace'];
  /** The findings of the fixed texts: why a location may still lose its connections. */
  remaining: Finding[];
}

/** The workspaces as written and as `check --fix` would write them; a string is why prove cannot run. */
export async function readInputs(options: ProveOptions, io: ProveIo): Promise<Inputs | string> {
  let settings;
  try {
    settings = resolveSettings(options.check, io.cwd);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return `${displayPath(error.file, io.cwd)}: ${error.detail}`;
  }
  const discovery = options.check.stdin ? stdinDiscovery(options.check, io.cwd) : discoverFiles(options.check.patterns, io.cwd);
  if (mappingsOutsideRoots(settings, discovery.readRoots).length > 0) return 'a settings file maps a path outside the checked paths (run check for details)';
  const read = options.check.stdin
    ? await readStdinDocuments(options.check, io.cwd, settings.analyze.maxFileBytes, () => io.stderrLine(waitingNote()))
    : readDocuments(discovery.files, io.cwd, {
        maxFileBytes: settings.analyze.maxFileBytes,
        alreadyRead: discovery.alreadyRead,
        realPaths: discovery.realPaths,
      });
  const errors = [...discovery.errors, ...read.errors];
  if (errors.length > 0) return errors.join('\n');
  const base: AnalyzeOptions = { ...settings.analyze, readRoots: discovery.readRoots };
  // An nginx -T dump is proved as the configuration it holds, its includes resolved among its own files (cli/dump.ts).
  const { plain, dumps } = separateDumps(read.documents);
  const dump = dumps[0];
  if (dumps.length + (plain.length > 0 ? 1 : 0) > 1) return 'prove takes one nginx -T dump, or configuration files, not both';
  const documents = dump ? dump.files : plain;
  if (documents.length === 0) return 'nothing to prove: no configuration was read';
  const analyzeOptions = dump ? dumpAnalyzeOptions(base, dump) : base;
  const before = (await analyzeWorkspace(documents, analyzeOptions, [])).workspace;
  const template = before.files.find((file) => file.isTemplate);
  if (template) {
    return (
      `${displayPath(template.path, io.cwd)} is a template: render it first and prove the result ` +
      '(for a Dokku app: dokku nginx:show-config APP | nginx-keepalive prove -)'
    );
  }
  const scope = dump ? VIRTUAL_READ_SCOPE : createReadScope(discovery.readRoots);
  const fixed = await fixAll(documents, analyzeOptions, registeredRules, {
    canEdit: (file) => scope.allows(path.resolve(io.cwd, file)),
    unsafe: options.check.unsafeFixes,
  });
  const fixedDocuments: SourceDocument[] = documents.map((document) => ({ ...document, text: fixed.texts.get(document.path) ?? document.text }));
  const named = new Set(documents.map((document) => document.path));
  // Included files the fixes changed: read as fixed, as `check --fix` would have written them.
  for (const [file, text] of fixed.texts) if (!named.has(file) && text !== fixed.originals.get(file)) fixedDocuments.push({ path: file, text });
  const afterOptions = dump ? dumpAnalyzeOptions(base, { source: dump.source, files: fixedDocuments }) : analyzeOptions;
  const after = (await analyzeWorkspace(fixedDocuments, afterOptions, [])).workspace;
  return { before, after, remaining: fixed.remaining };
}

// One analysis: a unit's documents (a workspace folder's nginx files, or a root file; analysis-units.ts) and every
// file they include, with the open documents' current texts and models. Every open document analyzed in that unit
// gets its snapshot from the same run.
import path from 'node:path';
import { analyzeWorkspace } from '../engine/analyze.js';
import type { ReusableAnalysis } from '../engine/finding-reuse.js';
import type { FileHost, SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import type { OpenDocument } from './open-document.js';
import type { ModelStore } from './model-store.js';
import type { RuleSettings } from './settings-store.js';
import type { DocumentSnapshot } from './snapshot.js';

export interface UnitInputs {
  /** What analyze() is given: the folder's documents, or the root file (analysis-units.ts). */
  documents: readonly SourceDocument[];
  /** Open documents expected in the unit (the root itself, when open, among them). */
  members: readonly OpenDocument[];
  /** The name a member has in the unit: its own, or for a link the target name the folder keeps. */
  nameOf(member: OpenDocument): string;
  host: FileHost;
  models: ModelStore;
  settings: RuleSettings;
  readRoots: string[] | undefined;
  /** The root's previous analysis: its findings are reused when only inert arguments changed since. */
  previous?: ReusableAnalysis;
}

export interface UnitResult {
  /** Every file of the analyzed graph (absolute paths): a change to any of them makes the result stale. */
  files: Set<string>;
  /** Snapshots of the members the graph reached; members it did not reach are missing. */
  snapshots: Map<OpenDocument, DocumentSnapshot>;
  /** For the root's next analysis. */
  analysis: ReusableAnalysis;
}

export async function analyzeUnit(inputs: UnitInputs): Promise<UnitResult> {
  const { members, host, models } = inputs;
  const options: AnalyzeOptions = { ...inputs.settings, readRoots: inputs.readRoots, host, models };
  // Versions as the analysis starts: a document changed meanwhile gets no snapshot of an older text.
  const versions = new Map(members.map((member) => [member, member.version] as const));
  const analysis = await analyzeWorkspace(inputs.documents, options, undefined, inputs.previous);
  const { findings, workspace } = analysis;
  const files = new Set(workspace.files.map((file) => path.resolve(file.path)));
  const snapshots = new Map<OpenDocument, DocumentSnapshot>();
  // Findings name a few files thousands of times: each name is resolved once, not once per finding and member.
  const resolved = new Map<string, string>();
  const resolve = (file: string) => resolved.get(file) ?? resolved.set(file, path.resolve(file)).get(file)!;
  const byPath = new Map(workspace.files.map((file) => [path.resolve(file.path), file] as const));
  for (const member of members) {
    const name = inputs.nameOf(member);
    const file = byPath.get(name);
    if (!file || member.version !== versions.get(member) || file.text !== member.text) continue;
    snapshots.set(member, {
      uri: member.uri,
      version: member.version,
      path: member.path,
      text: file.text,
      file,
      workspace,
      findings: findings.filter((finding) => resolve(finding.file) === name),
      options,
    });
  }
  return { files, snapshots, analysis };
}

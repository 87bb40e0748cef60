// One unit of parallel work: analyze() of a batch of documents as one workspace, plus what the batch touched, so the
// caller can prove batches independent (footprint.ts). Runs the same on the main thread and in a worker.
import { analyzeWorkspace } from '../../engine/analyze.js';
import { materializeFixes } from '../../engine/lazy-fix.js';
import { plainSpan } from '../../model/line-index.js';
import type { Finding, SourceDocument } from '../../util/types.js';
import type { AnalyzeOptions } from '../../engine/types.js';
import { footprintOf, type Footprint } from './footprint.js';

export interface BatchResult {
  findings: Finding[];
  footprint: Footprint;
}

/** What a worker is sent: only plain data, since it crosses a thread (so no host and no model cache). */
export interface BatchTask {
  documents: SourceDocument[];
  options: Omit<AnalyzeOptions, 'host' | 'models'>;
  /** Build the fixes here: a finding's fix is built lazily from the model, which stays in the worker. */
  fixes?: boolean;
}

export async function analyzeBatch(task: BatchTask): Promise<BatchResult> {
  const { findings, workspace } = await analyzeWorkspace(task.documents, task.options);
  if (task.fixes) materializeFixes(findings);
  // A model's span computes its positions when asked; the copy a worker posts keeps only plain properties.
  for (const finding of findings) finding.span = plainSpan(finding.span);
  return { findings, footprint: footprintOf(workspace, task.documents) };
}

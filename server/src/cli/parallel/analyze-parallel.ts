// `check --jobs N`: analyze() spread over N threads (the main thread and N-1 workers), with findings identical to a
// single analyze() of all the documents.
//
// Why that holds: the documents are split into batches, each analyzed as a workspace of its own. A split can only
// change findings where analysis couples roots: through a file both batches reach, or through a name one batch
// looked up across roots and another defines (recorded by the analysis itself: analysis/lookup-record.ts, read by
// footprint.ts). predict-groups.ts keeps documents likely to interact in one
// batch; after the run every batch's footprint is checked, and batches that did interact are merged and analyzed
// again, until none do. The merged findings are sorted as analyze() sorts them; findings of one file all come from
// one batch, so even ties keep analyze()'s order. (One difference remains by design: a rule that crashes loses its
// findings for its own batch only, where a single run loses them for every file.)
import path from 'node:path';
import { analyze, compareFindings } from '../../engine/analyze.js';
import type { Finding, SourceDocument } from '../../util/types.js';
import type { BatchResult, BatchTask } from './analyze-batch.js';
import { conflictingBatches } from './conflicts.js';
import { packBatches } from './pack-batches.js';
import { statementsOf, type Statements } from './linking-statements.js';
import { predictGroups } from './predict-groups.js';
import { runAll } from './schedule.js';
import type { WorkerRunner } from './worker-pool.js';

/**
 * Below this much text (about a second of work) a worker costs more than it saves: its start-up, and the JIT warm-up
 * of a fresh isolate, come to a few hundred milliseconds of CPU.
 */
export const MIN_PARALLEL_CHARS = 1_000_000;
/** Batches per thread: enough to even out uneven batches, few enough that per-workspace costs stay small. */
const BATCHES_PER_JOB = 8;

type BatchOptions = BatchTask['options'];

/** How a parallel run went: for tests, which must tell that the work really was split. */
export interface ParallelPlan {
  threads: number;
  /** Batches of the first round. */
  batches: number;
  /** Rounds after the first, each re-analysing batches found to interact. */
  merges: number;
}

export interface JobsTuning {
  /** The worker bundle; by default dist/cli-worker.js beside the running bundle (none: main thread only). */
  script?: URL;
  minChars?: number;
  report?: (plan: ParallelPlan) => void;
  /** The caller reads the findings' fixes (SARIF): workers build them, since a fix cannot be built after the thread. */
  fixes?: boolean;
}

export async function analyzeWithJobs(
  documents: readonly SourceDocument[],
  options: BatchOptions,
  jobs: number,
  tuning: JobsTuning = {},
): Promise<Finding[]> {
  if (jobs <= 1) return analyze(documents, options);
  // Loaded only here: node:worker_threads costs a one-file `check` a few milliseconds of start-up.
  const pool = await import('./worker-pool.js');
  const script = tuning.script ?? pool.workerScript();
  const chars = documents.reduce((sum, document) => sum + document.text.length, 0);
  if (script === undefined || chars < (tuning.minChars ?? MIN_PARALLEL_CHARS)) {
    return analyze(documents, options);
  }
  // Every batch must see the same read roots: analyze()'s default depends on which documents it is given.
  const shared: BatchOptions = { ...options, readRoots: options.readRoots ?? documents.map((d) => path.dirname(d.path)) };
  // Started first: they load while the documents are grouped.
  const workers = Array.from({ length: jobs - 1 }, () => new pool.WorkerRunner(script));
  let succeeded = false;
  try {
    const statements = await statementsOnEveryThread(documents, workers);
    const groups = predictGroups(documents, { readRoots: shared.readRoots!, pathMap: shared.pathMap ?? [] }, statements);
    const batches = packBatches(groups, documents, jobs * BATCHES_PER_JOB);
    if (batches.length < 2) return await analyze(documents, options);
    const { batches: final, merges } = await runUntilIndependent(batches, documents, { options: shared, fixes: tuning.fixes }, workers);
    tuning.report?.({ threads: workers.length + 1, batches: batches.length, merges });
    succeeded = true;
    return combine(final);
  } finally {
    await Promise.all(workers.map((worker) => worker.close(succeeded)));
  }
}

/**
 * Each document's linking statements, scanned on every thread at once: the grouping is the last step before the
 * workers get batches, and a scan of every text on the main thread alone kept them waiting. Contiguous slices of
 * about equal size; the main thread scans the first while the workers scan the rest.
 */
async function statementsOnEveryThread(documents: readonly SourceDocument[], workers: readonly WorkerRunner[]): Promise<Statements[]> {
  const slices = sliceBySize(documents, workers.length + 1);
  const scanned = slices.slice(1).map((slice, index) => workers[index]!.statements(slice.map((document) => document.text)));
  const own = slices[0]!.map((document) => statementsOf(document.text));
  const rest = await Promise.all(scanned);
  return [own, ...rest].flat();
}

/** `parts` contiguous slices of about equal text size (some may be empty), in order. */
function sliceBySize(documents: readonly SourceDocument[], parts: number): SourceDocument[][] {
  const total = documents.reduce((sum, document) => sum + document.text.length + 1, 0);
  const slices: SourceDocument[][] = Array.from({ length: parts }, () => []);
  let done = 0;
  for (const document of documents) {
    const slice = Math.min(parts - 1, Math.floor((done * parts) / total));
    slices[slice]!.push(document);
    done += document.text.length + 1;
  }
  return slices;
}

interface Batch {
  /** Document indices, ascending. */
  members: number[];
  result: BatchResult;
}

async function runUntilIndependent(
  memberLists: number[][],
  documents: readonly SourceDocument[],
  shared: Omit<BatchTask, 'documents'>,
  workers: WorkerRunner[],
): Promise<{ batches: Batch[]; merges: number }> {
  const run = async (lists: number[][]): Promise<Batch[]> => {
    const tasks = lists.map((members) => ({ ...shared, documents: members.map((index) => documents[index]!) }));
    const results = await runAll(tasks, workers);
    return lists.map((members, index) => ({ members, result: results[index]! }));
  };
  let batches = await run(memberLists);
  for (let merges = 0; ; merges++) {
    const conflicts = conflictingBatches(batches.map((batch) => batch.result.footprint));
    if (conflicts.length === 0) return { batches, merges };
    const merged = conflicts.map((set) => set.flatMap((index) => batches[index]!.members).sort((a, b) => a - b));
    const conflicting = new Set(conflicts.flat());
    batches = [...batches.filter((_, index) => !conflicting.has(index)), ...(await run(merged))];
  }
}

/** Sorted as analyze() sorts, with its own comparison; the sort is stable, so ties keep batch order. */
function combine(batches: Batch[]): Finding[] {
  return batches.flatMap((batch) => batch.result.findings).sort(compareFindings);
}

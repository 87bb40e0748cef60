// Packs groups of documents (which must stay together) into about `target` batches of similar size, keeping the
// documents' order inside each batch.
import type { SourceDocument } from '../../util/types.js';

export function packBatches(groups: readonly number[][], documents: readonly SourceDocument[], target: number): number[][] {
  const sizeOf = (group: readonly number[]) => group.reduce((sum, index) => sum + documents[index]!.text.length + 1, 0);
  const total = groups.reduce((sum, group) => sum + sizeOf(group), 0);
  const perBatch = Math.max(1, Math.ceil(total / Math.max(1, target)));
  const batches: number[][] = [];
  let current: number[] = [];
  let currentSize = 0;
  for (const group of groups) {
    for (const index of group) current.push(index);
    currentSize += sizeOf(group);
    if (currentSize >= perBatch) {
      batches.push(current.sort((a, b) => a - b));
      current = [];
      currentSize = 0;
    }
  }
  if (current.length > 0) batches.push(current.sort((a, b) => a - b));
  return batches;
}

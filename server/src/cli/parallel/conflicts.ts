// Which batches, analyzed apart, saw something another batch also touches (footprint.ts), and so must be merged and
// analyzed again together: a shared file, or a key one batch looked up across roots and another defines. Only sets of
// two or more batches are returned; none means the split run equals one run.
import { LOOKUP_KINDS } from '../../analysis/lookup-record.js';
import type { Footprint } from './footprint.js';
import { UnionFind } from './union-find.js';

/** Collects, per key, the batches that mention it. */
class KeyIndex {
  private readonly batches = new Map<string, number[]>();

  add(key: string, batch: number): void {
    const list = this.batches.get(key);
    if (!list) this.batches.set(key, [batch]);
    else if (list.at(-1) !== batch) list.push(batch);
  }

  get(key: string): readonly number[] {
    return this.batches.get(key) ?? [];
  }

  values(): IterableIterator<number[]> {
    return this.batches.values();
  }
}

export function conflictingBatches(footprints: readonly Footprint[]): number[][] {
  const sets = new UnionFind(footprints.length);
  const files = new KeyIndex();
  footprints.forEach((footprint, batch) => footprint.files.forEach((file) => files.add(file, batch)));
  for (const sharing of files.values()) sets.unionAll(sharing);
  for (const kind of LOOKUP_KINDS) {
    const definers = new KeyIndex();
    footprints.forEach((footprint, batch) => footprint.defines[kind].forEach((key) => definers.add(key, batch)));
    footprints.forEach((footprint, batch) => {
      for (const key of footprint.lookedUp[kind]) sets.unionAll([batch, ...definers.get(key)]);
    });
  }
  return sets.components().filter((component) => component.length > 1);
}

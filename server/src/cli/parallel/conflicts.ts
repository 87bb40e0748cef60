// Which batches, analyzed apart, saw something another batch also touches (footprint.ts), and so must be merged and
// analyzed again together. Only sets of two or more batches are returned; none means the split run equals one run.
import { GENERATED_UPSTREAM_PREFIX, type Footprint } from './footprint.js';
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
  const definers = new KeyIndex();
  const generatedNameDefiners: number[] = [];
  footprints.forEach((footprint, batch) => {
    footprint.files.forEach((file) => files.add(file, batch));
    footprint.defines.forEach((key) => definers.add(key, batch));
    if (footprint.defines.some((key) => key.startsWith(GENERATED_UPSTREAM_PREFIX))) generatedNameDefiners.push(batch);
  });
  for (const sharing of files.values()) sets.unionAll(sharing);
  footprints.forEach((footprint, batch) => {
    for (const key of footprint.needs) sets.unionAll([batch, ...definers.get(key)]);
    if (footprint.generates) sets.unionAll([batch, ...generatedNameDefiners]);
  });
  return sets.components().filter((component) => component.length > 1);
}

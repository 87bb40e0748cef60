// MemoMap: a memo's table holds no more than the current and the previous analysis' keys, and what an analysis reads
// of the previous one's entries is kept. A plain WeakMap kept the table of every key it ever held alive at once.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MemoMap, newMemoGeneration } from '../../server/src/util/memo-map.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapAfterCollection = () => (gc(), gc(), process.memoryUsage().heapUsed);

/** Heap a memo still holds once `analyses` analyses of `keysEach` keys each are over and their keys gone. */
function heapLeftBehind(memo: { set(key: object, value: boolean): unknown }, analyses: number, keysEach: number): number {
  const before = heapAfterCollection();
  for (let analysis = 0; analysis < analyses; analysis++) {
    newMemoGeneration();
    const keys = Array.from({ length: keysEach }, () => ({}));
    for (const key of keys) memo.set(key, true);
  }
  // Two analyses of one key each: the generations that held the big ones are dropped.
  for (let analysis = 0; analysis < 2; analysis++) {
    newMemoGeneration();
    memo.set({}, true);
  }
  return heapAfterCollection() - before;
}

describe('MemoMap', () => {
  it('gives back the table of keys that died, where a WeakMap keeps it', () => {
    const weakMap = new WeakMap<object, boolean>();
    const memo = new MemoMap<object, boolean>();
    // 20 analyses of 20,000 keys: a WeakMap's table grows past 4 MB between collections and stays there.
    expect(heapLeftBehind(weakMap, 20, 20_000)).toBeGreaterThan(2 * 1024 * 1024);
    expect(heapLeftBehind(memo, 20, 20_000)).toBeLessThan(256 * 1024);
    expect(weakMap.has({})).toBe(false);
  });

  it('keeps the previous analysis\' entries that are read, and drops those that are not', () => {
    const memo = new MemoMap<object, string>();
    const read = {};
    const unread = {};
    newMemoGeneration();
    memo.set(read, 'read').set(unread, 'unread');
    newMemoGeneration();
    memo.set({}, 'other');
    expect(memo.get(read)).toBe('read');
    expect(memo.has(unread)).toBe(true);
    newMemoGeneration();
    memo.set({}, 'other');
    expect(memo.get(read)).toBe('read');
    expect(memo.get(unread)).toBeUndefined();
    expect(memo.has(unread)).toBe(false);
  });

  it('remembers undefined as a value within an analysis', () => {
    const memo = new MemoMap<object, string | undefined>();
    const key = {};
    memo.set(key, undefined);
    expect(memo.has(key)).toBe(true);
    expect(memo.get(key)).toBeUndefined();
  });
});

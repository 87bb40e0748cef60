// A WeakMap for module-level memos keyed by objects that live for one analysis (scopes, upstreams, directive lists).
// V8 never shrinks a WeakMap's table when its keys die, only when the map itself does: a language server that
// analyzes a 1 MB file on every keystroke builds new scopes each time, and the memos' tables grew to hold tens of
// analyses' keys between full collections (8 MB for one memo of booleans) and kept that size for good.
// A MemoMap keeps two generations of WeakMaps and starts a new one in each analysis (newMemoGeneration(), called by
// analyze()): a table then holds at most one analysis' keys, and an entry read from the older generation moves into
// the current one, so what an analysis reuses from the one before (an unchanged file's scopes) is kept.
let generation = 0;

/** Called at the start of each analysis: every MemoMap starts a new generation at its next insertion. */
export function newMemoGeneration(): void {
  generation++;
}

export class MemoMap<K extends object, V> {
  private current = new WeakMap<K, V>();
  private previous = new WeakMap<K, V>();
  private generation = generation;

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined || this.current.has(key) || !this.previous.has(key)) return value;
    const carried = this.previous.get(key) as V;
    this.set(key, carried);
    return carried;
  }

  has(key: K): boolean {
    return this.current.has(key) || this.previous.has(key);
  }

  set(key: K, value: V): this {
    if (this.generation !== generation) {
      this.generation = generation;
      this.previous = this.current;
      this.current = new WeakMap();
    }
    this.current.set(key, value);
    return this;
  }
}

// A model keeps tens of thousands of small arrays (a directive's arguments and children, an argument's variables).
// One grown by push has room for about 17 elements whatever it holds, so a finished array is copied to its exact
// length, and an empty one is replaced by one shared frozen empty array (freezing makes a stray push throw).
const EMPTY: readonly never[] = Object.freeze([]);

/** `items` at its exact length, or the shared empty array; the caller no longer changes `items` in place. */
export function exactArray<T>(items: T[]): T[] {
  return items.length === 0 ? (EMPTY as never[]) : items.slice();
}

/** The shared empty array, for a list known to be empty from the start. */
export function noItems<T>(): T[] {
  return EMPTY as never[];
}

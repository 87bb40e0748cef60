// A full garbage collection once typing pauses (node only: lsp/main.ts gives it to the server; a web worker has
// none). Every keystroke in a large document leaves megabytes of short-lived analysis behind, and V8 collects its
// old generation only when that grows to a multiple of what survived the last collection: with a 1 MB document open
// the server sat at 190–260 MB RSS after typing stopped, though only ~33 MB of it was live, and V8's own memory
// reducer never ran while the process was idle. Collecting after a pause returns the difference to the system
// (~200 → ~120 MB there) and costs one full collection per pause (tens of ms, after the diagnostics are out), none
// while keys keep arriving.
import v8 from 'node:v8';
import vm from 'node:vm';
import type { ActivityListener } from './analysis-deps.js';

/** How long no analysis must run before collecting: longer than the gap between two keystrokes of a typist. */
export const IDLE_COLLECTION_DELAY_MS = 400;
/** Collect only when the heap grew this much since the last collection: a small document's typing is not worth it. */
export const IDLE_COLLECTION_MIN_GROWTH_BYTES = 8 * 1024 * 1024;

/** V8's `gc()`: the `--expose-gc` global when node was started with it, else one made for this process. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  // The flag takes effect for contexts created after it is set: a fresh context's global `gc` is V8's collector.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  // And is unset again at once (the function stays): V8 stamps a code cache with a hash of its flags and rejects one
  // made under other flags, so a server that collected before its code cache was written (at exit, or after 10 s:
  // scripts/cli-loader.mjs) left one that every later start rejected and compiled its bundle from source again.
  v8.setFlagsFromString('--no-expose-gc');
  return gc;
}

export class IdleCollection implements ActivityListener {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The heap in use after the last collection (of ours): growth is measured from it. */
  private afterLast = 0;
  /** Collections run so far (nginxKeepalive/stats). */
  collections = 0;
  private collect: (() => void) | undefined;

  constructor(
    private readonly delayMs = IDLE_COLLECTION_DELAY_MS,
    private readonly minGrowthBytes = IDLE_COLLECTION_MIN_GROWTH_BYTES,
  ) {}

  busy(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  quiet(): void {
    this.busy();
    this.timer = setTimeout(() => this.collectIfGrown(), this.delayMs);
    // A pending collection never keeps the process alive after its connection closed.
    this.timer.unref();
  }

  private collectIfGrown(): void {
    this.timer = undefined;
    if (v8.getHeapStatistics().used_heap_size - this.afterLast < this.minGrowthBytes) return;
    this.collect ??= collector();
    // Compacting: a regular full collection frees dead objects but keeps every page that still holds a live one, and
    // typing leaves the old generation's pages a third empty (1 MB open: 44 MB of pages for 29 MB live, as VS Code
    // starts the server). Moving the survivors together gives those pages back (44 -> 30 MB). The flag is read at
    // each collection, so it is set for this one alone; unset again, it leaves V8's flag hash as it was (the code
    // cache's stamp: see collector()).
    v8.setFlagsFromString('--compact-on-every-full-gc');
    try {
      this.collect();
    } finally {
      v8.setFlagsFromString('--no-compact-on-every-full-gc');
    }
    this.collections++;
    this.afterLast = v8.getHeapStatistics().used_heap_size;
  }
}

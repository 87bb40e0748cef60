// Node flags the extension starts the language server with. V8 grows its young generation to 16 MB per semi-space
// when a large file is analysed on every keystroke, and keeps it: with the 1 MB benchmark file open that was 40 to
// 65 MB of the server's RSS (bench:lsp measures both). 4 MB semi-spaces cost no measurable latency there.
// Other editors start the server with plain `node`; docs/editors.md gives them the same flags and environment.
// --heap-growing-percent=20: V8 lets the old generation grow to up to 4× what survived its last full collection
// before collecting again, and every keystroke in a 1 MB document leaves that document's previous text (1 MB, in
// large-object space) behind: 60 keystrokes took the server from ~110 to 155 MB RSS (bench:lsp, run as VS Code runs
// it), ~35 MB of it dead text. Growing by 20% collects every few keystrokes there: 103–105 MB after the same 60.
// Not --single-threaded-gc (the extension used it for RSS at rest, which MALLOC_ARENA_MAX=2 now keeps as low without
// it): on one thread each of those collections marks the whole heap within a keystroke, 3–5 ms more per keystroke on
// 1 MB; V8's helper threads mark concurrently.
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=20'];

// Environment the extension adds to its own for the server. glibc gives each thread that mallocs its own arena
// (up to 8 per core), and freed memory in them is rarely returned to the system: two arenas hold the server's
// off-heap memory (parser buffers, strings handed to libuv) with less of it left stranded at rest.
// MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ fix glibc's thresholds at their defaults (128 KB): left alone,
// glibc raises the mmap threshold to the size of each large block freed, so the megabyte-sized buffers of a large
// document's messages came from the heap after the first and left it fragmented (1 MB open, at rest: 20 -> 11 MB).
export const SERVER_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

// How the analysis worker lets a burst of edits end before it analyzes: it waits while changes keep arriving.

/** Waits for a quiet turn at most this often: a client that never stops typing still gets diagnostics. */
const MAX_SETTLE_TURNS = 500;

/**
 * Two turns of the event loop. The connection handles one queued message per turn (vscode-jsonrpc schedules its
 * queue with setImmediate), and a callback scheduled while a message is handled runs before the connection's next
 * turn: only after two turns has the connection had its chance to handle the next queued message.
 */
export const nextTurns = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** Resolves once two turns pass with `changes()` unchanged, so a burst ends in one analysis of the final text. */
export async function settled(changes: () => number): Promise<void> {
  for (let turn = 0; turn < MAX_SETTLE_TURNS; turn++) {
    const before = changes();
    await nextTurns();
    if (changes() === before) return;
  }
}

// Messages sent to the client whose write has not completed. vscode-jsonrpc writes a message a few event-loop turns
// after it is sent (its write queue runs in setImmediate), so work that starts right after an analysis without
// yielding holds the message back until that work ends: the workspace pass's first unit, a 1 MB file beside the
// document opened, held the document's first diagnostics back by 300 ms (bench/lsp-latency.mjs). What must go after
// the open documents' diagnostics waits for their writes too (AnalysisService.whenIdle).

export class PendingWrites {
  private readonly writes = new Set<Promise<unknown>>();

  get size(): number {
    return this.writes.size;
  }

  /** Remembers a write until it completes; `write` undefined (nothing was sent) is ignored. */
  add(write: Promise<unknown> | void): void {
    if (!write) return;
    this.writes.add(write);
    const done = () => void this.writes.delete(write);
    write.then(done, done);
  }

  /** Resolves once the writes pending now have completed (failed ones too: a failure is the connection's to report). */
  async written(): Promise<void> {
    await Promise.allSettled([...this.writes]);
  }
}

// Entry point of dist/server.js: the language server alone (editors start it with --stdio or --node-ipc). The CLI's
// `nginx-keepalive lsp` imports this same bundle rather than carrying the server in dist/cli.js (esbuild.mjs), and
// starts it itself: the server starts here only when this file is the script node was asked to run.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startLanguageServer as startServer } from './server.js';
import { IdleCollection } from './idle-collection.js';

/** The server on node's transports, collecting garbage once typing pauses (idle-collection.ts). */
export function startLanguageServer(): void {
  startServer(undefined, { activity: new IdleCollection() });
}

function isProcessScript(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isProcessScript()) startLanguageServer();

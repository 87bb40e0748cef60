// Globals node gives the core that a browser (a page, a worker) lacks, injected into the browser bundles:
// `process` (path-browserify asks for cwd(), options read env; the language server registers an unhandledRejection
// logger and reports memory in its stats request), `setImmediate` (the language server's "after the queued
// messages" turns) and `Buffer` (the npm package of node's API: the content sniff the extension's document claim
// shares with the CLI reads UTF-8 bytes). A page or a worker has one directory, `/`, no environment and no process
// events.
export { Buffer } from 'buffer';

export const process = {
  env: {},
  cwd: () => '/',
  platform: 'browser',
  versions: {},
  argv: [],
  on: () => process,
  memoryUsage: () => ({ rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 }),
};

export function setImmediate(callback, ...args) {
  return setTimeout(callback, 0, ...args);
}

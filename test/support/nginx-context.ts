// Where a config snippet goes when real nginx tests it: the fixture's stated `context=` option, else the context the
// tool itself infers for the file's top level (model/context.ts: main for events/http/user..., http for top-level
// server/upstream/map and for Dokku sigils, stream when a top-level server proxies outside any location, server for
// location/listen, location for proxy_pass...).
import { buildConfigFile } from '../../server/src/model/build.js';
import { inferRootContext } from '../../server/src/model/context.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import type { NginxContext } from './expectations.js';

const TESTABLE: ReadonlySet<string> = new Set<NginxContext>(['main', 'http', 'server', 'location', 'stream']);

export async function nginxContextOf(file: string, text: string, stated?: NginxContext): Promise<NginxContext> {
  if (stated) return stated;
  const parser = await loadNginxParser();
  const tree = parser.parse(text);
  try {
    const context = inferRootContext(buildConfigFile(file, text, tree));
    return TESTABLE.has(context) ? (context as NginxContext) : 'http';
  } finally {
    tree.delete();
  }
}

// The contexts a snippet checked on its own may be included in, and why: what the directive rule reads it in when
// nothing states its context (no `# nginx-keepalive: context=` comment, no --context or "contexts" setting) and no
// checked file includes it (then it is read in its includer's place, not as a root at all).
//
//   1. its place: Debian's and the official image's directories say where their files go. sites-*/, conf.d/ and
//      http.d/ hold http-level files, stream.d/ and streams-*/ stream-level ones, snippets/ server- or location-level
//      ones (Debian's fastcgi-php.conf is a location's);
//   2. else its content: a top-level directive that demands an outer context (`server_name`, a `location` block:
//      server; `upstream`, `proxy_cache_path`: http) rules out every context inside that one;
//   3. among what is left, the context where the fewest directives are misplaced, and on a tie the outermost. So a
//      misplaced directive does not make the guess: `alias` in a server-level snippet that also holds a `location`
//      block is reported, not read as a location snippet's (a location may hold locations).
import path from 'node:path';
import type { DirectiveContext } from '../model/directive-table.js';
import { preciseContext } from '../model/directive-context.js';
import type { WorkspaceRoot } from '../model/workspace.js';

/** Candidate tops, outermost first; a tie goes to the first. */
export interface SnippetTops {
  tops: readonly DirectiveContext[];
  /** Why these, for the report: "its directory snippets/", "its location block on line 3". */
  why: string;
}

const OUTERMOST_FIRST: readonly DirectiveContext[] = ['main', 'http', 'server', 'location', 'stream', 'stream-server'];

/** The contexts inside each (a snippet demanding `server` cannot be a location's). */
const INSIDE: Partial<Record<DirectiveContext, readonly DirectiveContext[]>> = {
  main: ['http', 'server', 'location', 'stream', 'stream-server'],
  http: ['server', 'location'],
  server: ['location'],
  stream: ['stream-server'],
};

const PLACES: ReadonlyArray<{ directory: RegExp; tops: readonly DirectiveContext[] }> = [
  { directory: /^(sites-(available|enabled)|conf\.d|http\.d|vhosts\.d)$/, tops: ['http'] },
  { directory: /^(stream\.d|streams-(available|enabled))$/, tops: ['stream'] },
  { directory: /^snippets$/, tops: ['server', 'location'] },
];

/** The tops its directory allows, when the directory is one of the known ones. */
function fromPlace(file: string): SnippetTops | undefined {
  const directory = path.basename(path.dirname(file));
  const place = PLACES.find((candidate) => candidate.directory.test(directory));
  return place ? { tops: place.tops, why: `its directory ${directory}/` } : undefined;
}

/**
 * The tops of a root whose top context is only guessed. `inferred` (model/context.ts) is the outermost context a
 * top-level directive demands; a `location` guess comes from location-only directives, exactly the ones a server
 * snippet may hold by mistake, so it rules nothing out.
 */
export function snippetTops(root: WorkspaceRoot): SnippetTops {
  const place = fromPlace(root.file.path);
  if (place) return place;
  const demanded = root.basis === 'inferred' && root.context !== 'location' ? preciseContext(root.context) : undefined;
  if (!demanded) return { tops: OUTERMOST_FIRST, why: 'no directive in it says where it is included' };
  const inside = new Set(INSIDE[demanded] ?? []);
  const tops = [demanded, ...OUTERMOST_FIRST.filter((top) => top !== demanded && !inside.has(top))];
  return { tops, why: `its top-level directives, which need ${demanded} level or outer` };
}

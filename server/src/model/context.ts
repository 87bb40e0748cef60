// Which nginx context a block opens, and which context a file's top level is in when nothing includes it.
import path from 'node:path';
import type { ConfigFile, ContextName, Directive } from './types.js';
import { namesLuaBlock } from './plain-tokens.js';

export const CONTEXT_NAMES: readonly ContextName[] = [
  'main',
  'events',
  'http',
  'server',
  'location',
  'upstream',
  'if',
  'limit_except',
  'map',
  'geo',
  'types',
  'split_clients',
  'stream',
  'mail',
  'lua',
  'block',
];

export function parseContextName(name: string): ContextName | undefined {
  return (CONTEXT_NAMES as readonly string[]).includes(name) ? (name as ContextName) : undefined;
}

/** Blocks whose context carries the directive's own name: every context but the three that are not directives. */
const NAMED_CONTEXTS: ReadonlySet<string> = new Set(
  CONTEXT_NAMES.filter((name) => name !== 'main' && name !== 'lua' && name !== 'block'),
);

/**
 * The context inside `directive`'s block, or undefined when it has no block. `enclosing` is the context the directive
 * sits in: `server` inside `upstream` is a simple directive, so a block after it is nothing nginx knows.
 */
export function contextOpenedBy(directive: Directive, enclosing: ContextName): ContextName | undefined {
  if (!directive.blockSpan) return undefined;
  if (namesLuaBlock(directive.name)) return 'lua';
  if (directive.name === 'server' && enclosing === 'upstream') return 'block';
  if (NAMED_CONTEXTS.has(directive.name)) return directive.name as ContextName;
  return 'block';
}

const MAIN_ONLY = new Set([
  'events',
  'http',
  'stream',
  'mail',
  'worker_processes',
  'user',
  'pid',
  'load_module',
  'worker_rlimit_nofile',
  'worker_rlimit_core',
  'worker_cpu_affinity',
  'worker_priority',
  'worker_shutdown_timeout',
  'working_directory',
  'daemon',
  'master_process',
  'lock_file',
  'pcre_jit',
  'thread_pool',
  'timer_resolution',
  'ssl_engine',
  'env',
]);

/** Top-level directives of http that stream has too: a file holding them is an http or a stream snippet. */
const HTTP_OR_STREAM = new Set([
  'server',
  'upstream',
  'map',
  'geo',
  'split_clients',
  'log_format',
  'limit_conn_zone',
  'map_hash_bucket_size',
  'map_hash_max_size',
  'variables_hash_bucket_size',
  'variables_hash_max_size',
]);

/** Top-level directives only http has. */
const HTTP_ONLY = new Set([
  'proxy_cache_path',
  'fastcgi_cache_path',
  'uwsgi_cache_path',
  'scgi_cache_path',
  'limit_req_zone',
  'server_names_hash_bucket_size',
  'server_names_hash_max_size',
]);

/** Statements of a stream `server {}` that http's server has not (proxy_pass is a location's in http). */
const STREAM_SERVER_ONLY = new Set([
  'proxy_pass',
  'ssl_preread',
  'proxy_timeout',
  'proxy_responses',
  'proxy_download_rate',
  'proxy_upload_rate',
  'preread_buffer_size',
  'preread_timeout',
]);

const SERVER_ONLY = new Set(['location', 'listen', 'server_name']);

const LOCATION_ONLY = new Set([
  'proxy_pass',
  'fastcgi_pass',
  'uwsgi_pass',
  'scgi_pass',
  'grpc_pass',
  'memcached_pass',
  'try_files',
  'alias',
  'limit_except',
  'internal',
]);

/** `include .../modules-enabled/*.conf` and the like load dynamic modules, which only the main context can do. */
function includesModules(directive: Directive): boolean {
  return (
    directive.name === 'include' &&
    directive.args.some((arg) => /(^|\/)modules(-enabled|-available)?\//.test(arg.value))
  );
}

function isMainOnly(directive: Directive): boolean {
  return MAIN_ONLY.has(directive.name) || includesModules(directive);
}

/**
 * How the model knows a root's top-level context: `stated` by a `# nginx-keepalive: context=` comment, `inferred` from
 * directives that demand it, or `unknown` when none does (`proxy_set_header ...;` alone fits http, server and
 * location alike). An unknown context is read as http so the rules still see the file, but a fix must not insert
 * anything that relies on it: the same snippet included in a location makes a top-level `map` an nginx error.
 */
export type ContextBasis = 'stated' | 'inferred' | 'unknown';

export interface RootContext {
  name: ContextName;
  basis: ContextBasis;
}

/**
 * The context of a file's top level when it is checked on its own: a stated context wins, a Dokku sigil is an http
 * snippet, and otherwise the most outer context any top-level directive demands (main > http > server > location).
 * Top-level `server`/`upstream`/`map` exist in stream too: a server holding stream-only statements (a proxy_pass
 * outside any location, ssl_preread, ...) makes the file a stream snippet, anything else an http one.
 */
export function rootContextOf(file: ConfigFile, given?: ContextName): RootContext {
  // A context given by the caller (--context, the settings file's "contexts") counts as stated, below the file's own
  // comment: the file knows best where it is included. Not cached: the same model may be checked with other settings.
  if (given !== undefined && !file.statedContext) return { name: given, basis: 'stated' };
  let context = rootContexts.get(file);
  if (context === undefined) {
    context = readRootContext(file);
    rootContexts.set(file, context);
  }
  return context;
}

export function inferRootContext(file: ConfigFile, given?: ContextName): ContextName {
  return rootContextOf(file, given).name;
}

// Choosing roots asks about every document several times; a file is immutable once built.
const rootContexts = new WeakMap<ConfigFile, RootContext>();

const inferred = (name: ContextName): RootContext => ({ name, basis: 'inferred' });

function readRootContext(file: ConfigFile): RootContext {
  if (file.statedContext) return { name: file.statedContext, basis: 'stated' };
  if (path.basename(file.path).endsWith('.sigil')) return inferred('http');
  const top = file.directives;
  // One pass for the most outer demand, rather than one pass over the statements per context.
  let demand = 0;
  for (const directive of top) {
    const rank = isMainOnly(directive) ? MAIN_DEMAND : (DEMANDS.get(directive.name) ?? 0);
    if (rank > demand) demand = rank;
    if (demand === MAIN_DEMAND) return inferred('main');
  }
  if (demand === HTTP_DEMAND) return inferred('http');
  if (demand === HTTP_OR_STREAM_DEMAND) return inferred(isStreamSnippet(top) ? 'stream' : 'http');
  if (demand === SERVER_DEMAND) return inferred('server');
  if (demand === LOCATION_DEMAND) return inferred('location');
  return { name: 'http', basis: 'unknown' };
}

/** What a top-level directive demands of its context, the more outer the higher (main > http > server > location). */
const MAIN_DEMAND = 5;
const HTTP_DEMAND = 4;
const HTTP_OR_STREAM_DEMAND = 3;
const SERVER_DEMAND = 2;
const LOCATION_DEMAND = 1;
const DEMANDS = new Map<string, number>();
for (const [names, rank] of [
  [LOCATION_ONLY, LOCATION_DEMAND],
  [SERVER_ONLY, SERVER_DEMAND],
  [HTTP_OR_STREAM, HTTP_OR_STREAM_DEMAND],
  [HTTP_ONLY, HTTP_DEMAND],
] as const) {
  // Later (more outer) sets win for a name in two of them, as the checks in order did.
  for (const name of names) DEMANDS.set(name, rank);
}

/**
 * A top-level server{} holds a statement only stream's server has, and none holds a location: in http, proxy_pass
 * outside a location is an error ("not allowed here"), so `server { listen 5433; proxy_pass db; }` is stream's.
 */
function isStreamSnippet(top: readonly Directive[]): boolean {
  const servers = top.filter((d) => d.name === 'server' && d.blockSpan);
  if (servers.some((server) => server.children.some((child) => child.name === 'location'))) return false;
  return servers.some((server) => server.children.some(isStreamServerStatement));
}

function isStreamServerStatement(directive: Directive): boolean {
  if (STREAM_SERVER_ONLY.has(directive.name)) return true;
  return directive.name === 'listen' && directive.args.some((arg) => arg.value === 'udp');
}

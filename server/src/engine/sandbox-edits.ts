// The pieces of `prove`'s sandbox rewrite (engine/sandbox-config.ts) that need no walk: the edits and how they are
// applied, what is removed outright, where a copy lives, the Host a server is asked for.
import path from 'node:path';
import type { ContextName, Directive } from '../model/types.js';
import type { PlannedLocation } from './sandbox-plan.js';
import type { NginxModules } from './sandbox-protocols.js';

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Directives that would open files outside the prefix or start something outside loopback: removed. */
const REMOVED = new Set([
  'user', 'daemon', 'master_process', 'pid', 'worker_processes', 'error_log', 'access_log', 'resolver',
  'resolver_timeout', 'http3', 'quic_retry', 'lock_file', 'working_directory', 'env',
  // Takes host names, which nginx resolves at start-up.
  'set_real_ip_from',
]);
/** Code nginx runs (Lua, Perl, njs) may open connections anywhere: left out, with a note (its locations still run). */
export const EMBEDDED_CODE = /^(lua_|perl|js_)|_by_lua(_block|_file)?$/;
const TEMP_KINDS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'] as const;

/** The temp paths nginx would create outside the prefix, each into it (those of modules nginx has). */
export function tempPaths(prefix: string, modules: NginxModules): string[] {
  const kinds = TEMP_KINDS.filter((kind) => (kind !== 'uwsgi' || modules.uwsgi) && (kind !== 'scgi' || modules.scgi));
  return kinds.map((kind) => `${kind}_temp_path ${path.join(prefix, 'tmp', kind)};`);
}
export const CACHE_PATHS = new Set(['proxy_cache_path', 'fastcgi_cache_path', 'uwsgi_cache_path', 'scgi_cache_path']);

export function isRemoved(name: string): boolean {
  // The client side of TLS to upstreams: certificates and CAs the sandbox does not have (the stubs' are not verified).
  return REMOVED.has(name) || name.endsWith('_temp_path') || /^(proxy|grpc|uwsgi)_ssl_/.test(name) || name.startsWith('quic_');
}

/** `<prefix>/conf/<absolute path>`: the copy of an original file. */
export function mirroredPath(prefix: string, file: string): string {
  return path.join(prefix, 'conf', path.resolve(file));
}

export function childContext(directive: Directive): ContextName {
  const known: readonly string[] = ['events', 'location', 'if', 'limit_except', 'map', 'geo', 'types', 'split_clients'];
  return known.includes(directive.name) ? (directive.name as ContextName) : 'block';
}

/** The first server_name a client can send as Host: not a wildcard, a regex or `_`; else `localhost`. */
export function serverName(server: Directive): string {
  for (const child of server.children) {
    if (child.name !== 'server_name') continue;
    const usable = child.args.find((arg) => /^[A-Za-z0-9.-]+$/.test(arg.value) && arg.value !== '_' && !arg.templated);
    if (usable) return usable.value;
  }
  return 'localhost';
}

export function quote(file: string): string {
  return /[\s;'"{}$\\]/.test(file) ? `"${file.replace(/[\\"]/g, '\\$&')}"` : file;
}

export function where(directive: Directive): string {
  return `${directive.file.path}:${directive.span.start.line + 1}`;
}

export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const edit of sorted) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

export interface ServerState {
  port: number;
  /** The Host requests to this server send. */
  name: string;
  /** A listen was rewritten already: the server's others are removed (one port per server). */
  listened: boolean;
  /** The rewritten (or inserted) listen, whose `ssl`/`http2` are added once the server is read. */
  listen?: Edit;
  /** Its listener speaks TLS (`listen … ssl`, `ssl on`) / HTTP/2 (`listen … http2`, `http2 on`). */
  tls: boolean;
  http2: boolean;
  /** It has a measured grpc_pass (its listener gets http2). */
  grpc: boolean;
  /** The locations planned in it, whose protocol is known once it is read. */
  plans: PlannedLocation[];
}

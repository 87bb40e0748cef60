// The text side of `prove`'s sandbox (engine/sandbox-config.ts): edits by file offset, quoting of prefix paths, the
// Host a server answers to, and where a directive is.
import type { ContextName, Directive } from '../model/types.js';

export interface Edit {
  start: number;
  end: number;
  text: string;
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
}

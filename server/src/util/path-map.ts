// One validation for a path mapping, wherever it is written: `--path-map FROM=TO`, `"pathMap"` in
// `.nginx-keepalive.json`, or the editor's `nginxKeepalive.pathMap`. Two copies had drifted apart (the command line
// took a relative FROM, which can never match an include that nginx resolves to an absolute path).
import path from 'node:path';
import type { PathMapping } from './types.js';

export type PathMappingCheck =
  | { ok: true; mapping: PathMapping }
  /** `part`: which half is wrong, for the caller to name it its own way; `problem`: why, without the key. */
  | { ok: false; part: 'from' | 'to'; problem: string };

/** `to` is resolved against `baseDirectory` (the settings file's directory, or the working directory). */
export function checkPathMapping(from: string, to: unknown, baseDirectory: string): PathMappingCheck {
  if (!from.startsWith('/')) {
    return { ok: false, part: 'from', problem: `"${from}" must be an absolute include prefix such as /etc/nginx` };
  }
  if (typeof to !== 'string' || to === '') {
    return { ok: false, part: 'to', problem: `expected a directory path, got ${JSON.stringify(to) ?? String(to)}` };
  }
  return { ok: true, mapping: { from: trimTrailingSlashes(from), to: path.resolve(baseDirectory, to) } };
}

/**
 * `/etc/nginx/` as `/etc/nginx` (a trailing slash would stop it matching `/etc/nginx` itself); `/` stays `/`.
 * A loop, not `/\/+$/`: that expression is quadratic on a long run of slashes followed by something else.
 */
export function trimTrailingSlashes(prefix: string): string {
  let end = prefix.length;
  while (end > 1 && prefix[end - 1] === '/') end--;
  return prefix.slice(0, end);
}

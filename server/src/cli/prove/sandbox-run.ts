// The sandbox nginx accepts: built (engine/sandbox-config.ts), written into its folder of the prefix, and `nginx -t`
// run on each instance. A load_module the local nginx has is loaded from its own modules; one it lacks is left out,
// and each directive nginx -t then does not know inside a location is left out with it (that location is skipped:
// without the module it is not the location the user runs), until nginx accepts the copy. Anything else it rejects
// (a missing module's directive at server or http level, any other error) ends the run with nginx's own message.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSandbox, type Sandbox, type SandboxOptions } from '../../engine/sandbox-config.js';
import { droppedDirective } from '../../engine/sandbox-modules.js';
import type { Workspace } from '../../model/workspace.js';
import { nginxPaths, testConfig } from './nginx-process.js';

/** nginx rejected the sandbox, or did not start: the run cannot go on (exit 2). */
export class SandboxRejected extends Error {}

/** At most this many directives are left out for missing modules before the run gives up with nginx's message. */
const MAX_DROPPED = 100;

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * A load_module argument as the local nginx has it: the same path (a relative one under nginx's --prefix, as nginx
 * reads it), else the same file name in its --modules-path; undefined when neither is there.
 */
export function localModules(binary: string): (argument: string) => string | undefined {
  const { prefix, modules } = nginxPaths(binary);
  return (argument) => {
    const same = path.isAbsolute(argument) ? argument : prefix !== undefined ? path.join(prefix, argument) : undefined;
    const byName = modules !== undefined ? path.join(modules, path.basename(argument)) : undefined;
    return [same, byName].find((file): file is string => file !== undefined && isFile(file));
  };
}

/** `unknown directive "echo" in /file:12` -> the dropped key `/file:12:echo`. */
function unknownDirective(message: string): { key: string; name: string } | undefined {
  const head = 'unknown directive "';
  const start = message.indexOf(head);
  if (start === -1) return undefined;
  const close = message.indexOf('" in ', start + head.length);
  const colon = message.lastIndexOf(':');
  if (close === -1 || colon < close) return undefined;
  const name = message.slice(start + head.length, close);
  const line = message.slice(colon + 1).trim();
  return /^\d+$/.test(line) ? { key: `${message.slice(close + 5, colon)}:${line}:${name}`, name } : undefined;
}

export function acceptedSandbox(workspace: Workspace, dir: string, binary: string, options: Omit<SandboxOptions, 'prefix' | 'dropped'>): Sandbox {
  const dropped = new Map<string, string>();
  for (;;) {
    const sandbox = buildSandbox(workspace, { ...options, prefix: dir, dropped });
    for (const sub of ['logs', 'tmp', 'cache']) mkdirSync(path.join(dir, sub), { recursive: true });
    for (const [file, text] of sandbox.files) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    let rejected: string | undefined;
    for (const instance of sandbox.instances) {
      rejected = testConfig(binary, dir, instance.mainConf);
      if (rejected !== undefined) break;
    }
    if (rejected === undefined) return sandbox;
    // The copies keep the originals' paths and lines (engine/sandbox-config.ts): name the original file.
    const named = rejected.split(path.join(dir, 'conf')).join('');
    const missing = sandbox.missingModules;
    const unknown = missing.length > 0 ? unknownDirective(named.split('\n')[0]!) : undefined;
    if (unknown && !dropped.has(unknown.key) && dropped.size < MAX_DROPPED && droppedDirective(workspace, unknown.key)?.inLocation) {
      dropped.set(unknown.key, `"${unknown.name}" is a directive of a module the local nginx does not have (${missing.join('; ')})`);
      continue;
    }
    const hint = missing.length > 0 ? `\n(left out, the local nginx has no such module: ${missing.join('; ')})` : '';
    throw new SandboxRejected(`nginx rejects the sandboxed configuration:\n${named}${hint}`);
  }
}

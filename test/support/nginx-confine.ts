// `nginx -t` opens every log a config names, creates its pid file and its temp and cache directories, at the paths the
// config gives or, where it gives none, at the paths Debian's nginx was built with (/run/nginx.pid,
// /var/log/nginx/access.log, /var/lib/nginx/*). The tests run configs from the wild as they are (pixelfed's and
// TrafeX's name /tmp/proxy_temp_path, /tmp/nginx.pid...), so nginx never reads the file itself: it reads a confined
// copy in which each of those paths points into the prefix, and the built-in ones are set there.
//
// The copy keeps every line where it was (edits stay within a line) and nginx's verdict: a path moves to
// <prefix>/root/<the same absolute path>, and the parent directory there is made only when the real one exists, so a
// log in a missing directory still fails as it would. The copy sits in a shadow of the config's directory (a symlink
// to each entry beside it), because nginx reads relative includes and certificates from the main config's directory.
// Files the config includes by a literal path are confined the same way; glob includes are read as they are.
// nginxWritesOutsidePrefix() runs nginx under strace to prove it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyEdits, quote, type Edit } from '../../server/src/engine/sandbox-edits.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import type { Directive } from '../../server/src/model/types.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';

const parser = await loadNginxParser();

/** The http temp paths nginx creates (its built-in ones are under /var/lib/nginx). */
export const TEMP_KINDS: readonly string[] = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];
const TEMP_PATHS = new Set(TEMP_KINDS.map((kind) => `${kind}_temp_path`));
const CACHE_PATH = /^(proxy|fastcgi|uwsgi|scgi)_cache_path$/;
const WRITTEN = new Set(['pid', 'lock_file', 'error_log', 'access_log']);
/** Where nginx's output goes when a config logs to it (runNginxTest points stdout and stderr at a file in the prefix). */
const OUTPUT_PATHS = /^\/(dev\/(stdout|stderr|null)|proc\/self\/fd\/\d+)$/;
const MAX_INCLUDE_DEPTH = 8;

export interface ConfinedConfig {
  /** The file to give nginx with -c. */
  confPath: string;
  /** True when the main file sets `pid` itself (moved into the prefix): then no `pid` may be given with -g. */
  setsPid: boolean;
  /** nginx's output with every copy's path, and every moved path, put back to the original's. */
  restore(output: string): string;
}

/** Writes the confined copy of `confPath` (and of what it includes by literal path) under `prefixDir`. */
export function confineConfig(confPath: string, prefixDir: string): ConfinedConfig {
  const originalDir = path.dirname(confPath);
  const shadow = path.join(prefixDir, 'shadow');
  const copies = path.join(shadow, '.confined');
  // A prefix serves many runs: each starts from a fresh shadow.
  rmSync(shadow, { recursive: true, force: true });
  mkdirSync(copies, { recursive: true });
  for (const entry of readdirSync(originalDir)) {
    if (entry === path.basename(confPath) || path.join(originalDir, entry) === shadow) continue;
    symlinkSync(path.join(originalDir, entry), path.join(shadow, entry));
  }
  const renamed = new Map<string, string>();
  const confine = new Confiner(prefixDir, originalDir, (original, text) => {
    const copy = path.join(copies, `${renamed.size}-${path.basename(original)}`);
    writeFileSync(copy, text);
    renamed.set(copy, original);
    return copy;
  });
  const main = confine.file(confPath, 0);
  const mainCopy = path.join(shadow, path.basename(confPath));
  writeFileSync(mainCopy, main.text);
  renamed.set(mainCopy, confPath);
  return {
    confPath: mainCopy,
    setsPid: main.setsPid,
    restore: (output) => {
      let restored = output;
      for (const [copy, original] of renamed) restored = restored.split(copy).join(original);
      // A moved path is named as the config wrote it (`open() "/var/log/app/x.log" failed`).
      return restored.split(`${shadow}/`).join(`${originalDir}/`).split(`${path.join(prefixDir, 'root')}/`).join('/');
    },
  };
}

class Confiner {
  constructor(
    private readonly prefixDir: string,
    /** The main config's directory: nginx resolves relative includes against it, whichever file holds them. */
    private readonly confDir: string,
    private readonly writeCopy: (original: string, text: string) => string,
  ) {}

  file(file: string, depth: number): { text: string; changed: boolean; setsPid: boolean } {
    const text = readFileSync(file, 'utf8');
    const config = parseFile(parser, file, text);
    const edits: Edit[] = [];
    for (const directive of config.directives) this.directive(directive, edits, depth);
    const setsPid = config.directives.some((directive) => directive.name === 'pid');
    const confined = applyEdits(text, edits);
    return { text: confined, changed: confined !== text, setsPid };
  }

  private directive(directive: Directive, edits: Edit[], depth: number): void {
    const first = directive.args[0];
    const name = directive.name;
    if (first && (WRITTEN.has(name) || TEMP_PATHS.has(name) || CACHE_PATH.test(name))) {
      const moved = this.moved(first.value, first.variables.length > 0);
      if (moved) edits.push({ start: first.span.startOffset, end: first.span.endOffset, text: quote(moved) });
    } else if (first && name === 'include' && depth < MAX_INCLUDE_DEPTH && !/[*?[]/.test(first.value)) {
      const target = path.resolve(this.confDir, first.value);
      if (existsSync(target) && statSync(target).isFile()) {
        const included = this.file(target, depth + 1);
        if (included.changed) {
          edits.push({ start: first.span.startOffset, end: first.span.endOffset, text: quote(this.writeCopy(target, included.text)) });
        }
      }
    }
    if (name === 'http' && directive.blockSpan) {
      edits.push({ start: directive.blockSpan.startOffset + 1, end: directive.blockSpan.startOffset + 1, text: this.httpDefaults(directive) });
    }
    for (const child of directive.children) this.directive(child, edits, depth);
  }

  /** The path inside the prefix for an absolute path nginx would write to; undefined when it stays as it is. */
  private moved(value: string, hasVariables: boolean): string | undefined {
    // A log path with variables is opened per request, never by nginx -t; relative paths are in the prefix already.
    if (hasVariables || !value.startsWith('/') || OUTPUT_PATHS.test(value)) return undefined;
    const moved = path.join(this.prefixDir, 'root', path.resolve(value));
    const realParent = path.dirname(path.resolve(value));
    if (existsSync(realParent) && statSync(realParent).isDirectory()) mkdirSync(path.dirname(moved), { recursive: true });
    return moved;
  }

  /** The built-in temp paths and access log, set in the prefix for what http{} itself leaves to them (same line). */
  private httpDefaults(http: Directive): string {
    const own = new Set(http.children.map((child) => child.name));
    const settings = TEMP_KINDS.filter((kind) => !own.has(`${kind}_temp_path`)).map(
      (kind) => ` ${kind}_temp_path ${path.join(this.prefixDir, 'tmp', kind)};`,
    );
    if (!own.has('access_log')) settings.push(` access_log ${path.join(this.prefixDir, 'logs', 'access.log')};`);
    return settings.join('');
  }
}

let writeTrace: { file: string; outside: string[] } | undefined;

/**
 * Runs `work` with every `nginx -t` in it under strace, and returns the paths nginx opened for writing or created
 * outside its prefix (nginx's own output paths aside). For the test that proves the confinement.
 */
export function nginxWritesOutsidePrefix(work: () => void): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-trace-'));
  writeTrace = { file: path.join(dir, 'strace.txt'), outside: [] };
  try {
    work();
    return [...new Set(writeTrace.outside)].sort();
  } finally {
    writeTrace = undefined;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `command` under strace when nginxWritesOutsidePrefix() is running, else as it is. */
export function tracedIfAsked(command: string[]): string[] {
  return writeTrace ? ['strace', '-f', '-qq', '-e', 'trace=openat,open,creat,mkdir,mkdirat', '-o', writeTrace.file, ...command] : command;
}

/** After a traced run: notes what it wrote outside `prefixDir`. */
export function recordTracedWrites(prefixDir: string): void {
  if (!writeTrace) return;
  for (const line of readFileSync(writeTrace.file, 'utf8').split('\n')) {
    const call = /\b(openat|open|creat|mkdir|mkdirat)\((?:AT_FDCWD, )?"([^"]*)"(.*)$/.exec(line);
    if (!call) continue;
    const [, name, file, rest] = call;
    const writes = name!.startsWith('mkdir') || name === 'creat' || /O_(WRONLY|RDWR|CREAT)/.test(rest!);
    if (writes && !file!.startsWith(`${prefixDir}/`) && !OUTPUT_PATHS.test(file!)) writeTrace.outside.push(file!);
  }
}

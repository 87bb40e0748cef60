// Renders Dokku nginx.conf.sigil templates for tests, with the small Go program in render-sigil/ (Go's text/template
// plus sigil's functions; gliderlabs/sigil itself is not available offline). The program is built once per version
// of its source into node_modules/.cache (inside the project, not the system's temp directory, where it would stay
// after the run) and shared by every test file; the Go standard library is all it needs.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'render-sigil', 'main.go');
const CACHE = path.resolve(path.dirname(SOURCE), '..', '..', '..', 'node_modules', '.cache');

let built: string | undefined;

/** The renderer binary, built from render-sigil/main.go unless a build of the same source exists. */
export function sigilRenderer(): string {
  if (built) return built;
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = path.join(CACHE, `nk-render-sigil-${hash}`);
  const binary = path.join(dir, 'render-sigil');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    // Test files run in parallel processes: each builds to its own name and renames (atomic), so none sees half a file.
    const partial = `${binary}.${process.pid}`;
    const result = spawnSync('go', ['build', '-o', partial, SOURCE], {
      encoding: 'utf8',
      // Offline and with the installed toolchain: the program needs nothing beyond the standard library.
      env: { ...process.env, GOTOOLCHAIN: 'local', GOPROXY: 'off', GOFLAGS: '' },
    });
    if (result.error) throw new Error(`cannot run go (install Go to render sigil templates): ${result.error.message}`);
    if (result.status !== 0) throw new Error(`go build ${SOURCE} failed:\n${result.stdout}${result.stderr}`);
    renameSync(partial, binary);
  }
  built = binary;
  return binary;
}

export class RenderError extends Error {}

/**
 * Renders template text with string variables, as `sigil -f <template> KEY=value...` does. Throws a RenderError when
 * Go's template engine rejects the text, or when the output prints a variable that was not given ("<no value>"):
 * the caller's variable set must cover the template.
 */
export function renderSigil(templateText: string, vars: Readonly<Record<string, string>>, name = 'template'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-render-'));
  try {
    const template = path.join(dir, path.basename(name));
    const varsFile = path.join(dir, 'vars.json');
    writeFileSync(template, templateText);
    writeFileSync(varsFile, JSON.stringify(vars));
    const result = spawnSync(sigilRenderer(), [template, varsFile], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.error) throw result.error;
    if (result.status !== 0) throw new RenderError(`rendering ${name} failed: ${result.stderr.trim()}`);
    const missing = result.stdout.indexOf('<no value>');
    if (missing !== -1) {
      const line = result.stdout.slice(0, missing).split('\n').length;
      throw new RenderError(`rendering ${name} printed a variable that was not given (<no value> on output line ${line})`);
    }
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

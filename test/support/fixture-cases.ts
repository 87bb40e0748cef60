// Finds the fixture cases under test/fixtures and their fix goldens, for the fixture harness and the real-nginx checks.
//
// A case is one input file (`<name>.conf`, `.sigil`, `.tmpl`, Jinja2 `<name>.conf.j2`, envsubst `<name>.conf.template`),
// or a directory `<name>.d/`
// whose files are analyzed together (its nginx.conf first, as the main file). A fix golden is a sibling named
// `<stem>.fixed.<ext>` (`<name>.conf.fixed.j2` for a Jinja2 input): the exact
// text the input has after every fix is applied (fixAll to a fixpoint). Goldens are never inputs themselves, and the
// analysis never sees them (fixtureHost hides them from include globs and reads), so a golden next to an included
// file cannot leak into the case it belongs to.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFsHost } from '../../server/src/util/fs-host.js';
import type { FileHost } from '../../server/src/util/types.js';

export const FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const FIXTURE_FILE = /\.(conf|sigil|tmpl|j2|template)$/;
const GOLDEN_FILE = /\.fixed\.(conf|sigil|tmpl|j2|template)$/;

export interface FixtureCase {
  /** Name shown in test titles and problem lines, relative to test/fixtures (a directory case ends in `/`). */
  name: string;
  /** Absolute paths of the inputs; the main file first. */
  files: string[];
  /** Input file -> its golden, for the inputs that have one. */
  goldens: Map<string, string>;
}

export function isGolden(file: string): boolean {
  return GOLDEN_FILE.test(path.basename(file));
}

/** `dir/invalid-x.conf` -> `dir/invalid-x.fixed.conf`. */
export function goldenPathOf(input: string): string {
  const ext = path.extname(input);
  return `${input.slice(0, -ext.length)}.fixed${ext}`;
}

/** `dir/invalid-x.fixed.conf` -> `dir/invalid-x.conf`. */
export function inputPathOf(golden: string): string {
  return golden.replace(/\.fixed(\.[^.]+)$/, '$1');
}

function listFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const full = path.join(dir, entry);
      return statSync(full).isDirectory() ? listFiles(full) : [full];
    });
}

function goldensOf(inputs: readonly string[], all: ReadonlySet<string>): Map<string, string> {
  const goldens = new Map<string, string>();
  for (const input of inputs) {
    const golden = goldenPathOf(input);
    if (all.has(golden)) goldens.set(input, golden);
  }
  return goldens;
}

function directoryCase(dir: string, root: string): FixtureCase {
  const name = `${path.relative(root, dir)}/`;
  const all = listFiles(dir);
  const inputs = all.filter((file) => !isGolden(file));
  const main = path.join(dir, 'nginx.conf');
  if (!inputs.includes(main)) throw new Error(`${name} has no nginx.conf (the main file of a multi-file fixture)`);
  const files = [main, ...inputs.filter((f) => f !== main)];
  return { name, files, goldens: goldensOf(files, new Set(all)) };
}

/** Every case under `dir` (recursively), in a stable order; names are relative to `root`. */
export function collectCases(dir: string = FIXTURES_DIR, root: string = dir): FixtureCase[] {
  const entries = readdirSync(dir).sort();
  const here = new Set(entries.map((entry) => path.join(dir, entry)));
  const cases: FixtureCase[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      cases.push(...(entry.endsWith('.d') ? [directoryCase(full, root)] : collectCases(full, root)));
    } else if (FIXTURE_FILE.test(entry) && !isGolden(full)) {
      cases.push({ name: path.relative(root, full), files: [full], goldens: goldensOf([full], here) });
    }
  }
  return cases;
}

/** Every golden file under `dir`, whether or not an input goes with it (the harness reports orphans). */
export function collectGoldens(dir: string = FIXTURES_DIR): string[] {
  return listFiles(dir).filter(isGolden);
}

/** The real file system without the goldens: they are expected outputs, never configuration the inputs include. */
export function fixtureHost(base: FileHost = createFsHost()): FileHost {
  return {
    readFile: (file) => (isGolden(file) ? undefined : base.readFile(file)),
    glob: (pattern) => base.glob(pattern).filter((file) => !isGolden(file)),
    exists: (file) => !isGolden(file) && base.exists(file),
  };
}

/** `base` with some files' texts replaced (absolute path -> text): the fixed texts, seen under the inputs' names. */
export function overlayHost(base: FileHost, texts: ReadonlyMap<string, string>): FileHost {
  const byPath = new Map([...texts].map(([file, text]) => [path.resolve(file), text] as const));
  return {
    readFile: (file) => byPath.get(path.resolve(file)) ?? base.readFile(file),
    glob: (pattern) => base.glob(pattern),
    exists: (file) => byPath.has(path.resolve(file)) || base.exists(file),
  };
}

/** The text each input of `fixture` should have after fixAll: its golden, or itself when it has none. */
export function expectedFixedTexts(fixture: FixtureCase): Map<string, string> {
  return new Map(
    fixture.files.map((file) => [file, readFileSync(fixture.goldens.get(file) ?? file, 'utf8')] as const),
  );
}

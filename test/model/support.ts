// Shared by the model tests: the real parser, real temp directories.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { buildConfigFile } from '../../server/src/model/build.js';
import type { SourceDocument } from '../../server/src/util/types.js';
import type { ConfigFile, Directive } from '../../server/src/model/types.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';

export async function parseModel(text: string, filePath = '/virtual/test.conf'): Promise<ConfigFile> {
  const parser = await loadNginxParser();
  const tree = parser.parse(text);
  try {
    return buildConfigFile(filePath, text, tree);
  } finally {
    tree.delete();
  }
}

/** Depth-first, document order. */
export function allDirectives(directives: readonly Directive[]): Directive[] {
  return directives.flatMap((d) => [d, ...allDirectives(d.children)]);
}

export function findDirective(file: ConfigFile, name: string, nth = 0): Directive {
  const found = allDirectives(file.directives).filter((d) => d.name === name)[nth];
  if (!found) throw new Error(`no directive ${name} #${nth}`);
  return found;
}

const created: string[] = [];
afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory holding `files` (relative path -> text); removed after the test. */
export function tempTree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'nk-model-'));
  created.push(root);
  for (const [relative, text] of Object.entries(files)) {
    const full = path.join(root, relative);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}

/** The documents at `relatives` under `root`, as the disk holds them now. */
export function readDocuments(root: string, relatives: readonly string[]): SourceDocument[] {
  return relatives.map((relative) => {
    const full = path.join(root, relative);
    return { path: full, text: readFileSync(full, 'utf8') };
  });
}

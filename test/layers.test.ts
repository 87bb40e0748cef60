// The layers of server/src, bottom to top (docs/development.md, "Repository layout"). A file may import its own folder and the
// folders below it, never one above; the adapters, cli/, lsp/ and playground/, sit side by side and never import
// each other.
// Every import is read with the TypeScript parser: `import … from`, `export … from` and `import('…')` with a literal,
// type-only ones included (a type import still couples the layers). The client talks to the server only over LSP,
// and bundles one pure function of it (CLIENT_SHARED_MODULES).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { rules } from '../server/src/rules/registry.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const SERVER = 'server/src';
/**
 * The only server modules the client bundles: which documents are nginx must be decided exactly as the CLI's walk
 * and the server's index decide it, before the server is asked anything (a pure function of name and text).
 */
const CLIENT_SHARED_MODULES = [`${SERVER}/engine/document-claim.ts`];
/**
 * The one client file that may import node's built-ins: it runs the bundled CLI for "Prove connection reuse". Only
 * the node entry imports it (test/client/prove-availability.test.ts checks the browser bundle has none of it).
 */
const CLIENT_NODE_MODULES = ['client/src/prove-run.ts'];

/**
 * Bottom to top; folders on one row are peers that may not import each other. `.` is the files directly in
 * server/src: the executable's entry (main.ts, dispatching `check` and `lsp`) and the build-time manifest generator.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['util'], // the file host, glob, byte sizes, read-file, paths, positions, the types every layer shares
  ['parser'], // the tree-sitter grammar (wasm) and its loader
  ['model'], // the config model: files, directives, contexts, includes, template guards, syntax problems
  ['analysis'], // every detection fact: scopes, inheritance, upstreams, passes, proxy state, the rule API types
  ['fixes'], // edit builders only
  ['rules'], // one file per rule id, plus the registry
  ['engine'], // analyze(), fixAll(), suppressions, settings and options, the nginx target, the directory walk, VERSION
  ['features'], // hover, navigation, symbols, semantic tokens
  ['cli', 'lsp', 'playground'], // the adapters (playground: the static page's core, bundled for the browser)
  ['.'], // the executable's entry
];

/** Outside server/src, only package.json may be imported (its version, by engine/version.ts). */
const ALLOWED_OUTSIDE = new Set(['package.json']);

export interface Import {
  /** Repository-relative path of the importing file. */
  from: string;
  /** The module specifier as written. */
  specifier: string;
}

function rankOf(folder: string): number {
  return LAYERS.findIndex((row) => row.includes(folder));
}

/** The layer folder of a repository-relative path under server/src (`.` for its top-level files). */
export function folderOf(file: string): string {
  const inside = path.posix.relative(SERVER, file);
  const slash = inside.indexOf('/');
  return slash < 0 ? '.' : inside.slice(0, slash);
}

/** Repository-relative target of a relative specifier, with `.js` read as the `.ts` it names; undefined for a package. */
function resolveImport(entry: Import): string | undefined {
  if (!entry.specifier.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(entry.from), entry.specifier));
  return target.endsWith('.js') ? `${target.slice(0, -3)}.ts` : target;
}

/** Every broken rule among these imports of server/src files, one sentence each. */
export function layerViolations(imports: readonly Import[]): string[] {
  const problems: string[] = [];
  for (const entry of imports) {
    const target = resolveImport(entry);
    if (target === undefined) continue;
    const where = `${entry.from} imports ${entry.specifier}`;
    const fromFolder = folderOf(entry.from);
    const fromRank = rankOf(fromFolder);
    if (fromRank < 0) {
      problems.push(`${entry.from}: folder ${fromFolder}/ is in no layer`);
      continue;
    }
    if (!target.startsWith(`${SERVER}/`)) {
      if (!ALLOWED_OUTSIDE.has(target)) problems.push(`${where}: outside server/src`);
      continue;
    }
    const toFolder = folderOf(target);
    const toRank = rankOf(toFolder);
    if (toRank < 0) problems.push(`${where}: folder ${toFolder}/ is in no layer`);
    else if (toRank > fromRank) problems.push(`${where}: ${fromFolder}/ may not import the higher layer ${toFolder}/`);
    else if (toRank === fromRank && toFolder !== fromFolder) {
      problems.push(`${where}: ${fromFolder}/ and ${toFolder}/ are peers and may not import each other`);
    }
  }
  return problems;
}

/** A cycle among the folders (as `a -> b -> a`), or undefined when the folder graph has none. */
export function folderCycle(imports: readonly Import[]): string | undefined {
  const edges = new Map<string, Set<string>>();
  for (const entry of imports) {
    const target = resolveImport(entry);
    if (target === undefined || !target.startsWith(`${SERVER}/`)) continue;
    const from = folderOf(entry.from);
    const to = folderOf(target);
    if (from === to) continue;
    const out = edges.get(from) ?? new Set<string>();
    out.add(to);
    edges.set(from, out);
  }
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (folder: string): string | undefined => {
    if (state.get(folder) === 'done') return undefined;
    if (state.get(folder) === 'open') return [...stack.slice(stack.indexOf(folder)), folder].join(' -> ');
    state.set(folder, 'open');
    stack.push(folder);
    for (const next of edges.get(folder) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(folder, 'done');
    return undefined;
  };
  for (const folder of edges.keys()) {
    const cycle = visit(folder);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The module specifiers one file imports: static imports and re-exports, and import() of a string literal. */
export function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Import[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push({ from: file, specifier: node.moduleSpecifier.text });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push({ from: file, specifier: argument.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(repoRoot, directory), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.posix.join(directory, name.split(path.sep).join('/')))
    .sort();
}

function importsUnder(directory: string): Import[] {
  return sourceFiles(directory).flatMap((file) => importsOf(file, readFileSync(path.join(repoRoot, file), 'utf8')));
}

describe('layers', () => {
  const serverImports = importsUnder(SERVER);

  it('reads the imports of server/src', () => {
    expect(serverImports.length).toBeGreaterThan(500);
    // All three forms are seen: the entry loads the language server with import().
    expect(serverImports).toContainEqual({ from: `${SERVER}/main.ts`, specifier: './lsp/server.js' });
  });

  it('has every file of server/src in a layer, importing only its own layer and those below', () => {
    expect(layerViolations(serverImports)).toEqual([]);
    for (const file of sourceFiles(SERVER)) expect(rankOf(folderOf(file)), file).toBeGreaterThanOrEqual(0);
  });

  it('has no cycle among the folders', () => {
    expect(folderCycle(serverImports)).toBeUndefined();
  });

  it('keeps only rule files (one per id) and the registry in rules/', () => {
    const files = readdirSync(path.join(repoRoot, SERVER, 'rules')).sort();
    const expected = [...rules.map((rule) => `${rule.meta.id}.ts`), 'registry.ts'].sort();
    expect(files).toEqual(expected);
  });

  it('lets the client import only vscode, the language client, its own files and the shared file claim (and prove-run.ts node:)', () => {
    for (const entry of importsUnder('client/src')) {
      const target = resolveImport(entry);
      const allowed =
        target === undefined
          ? entry.specifier === 'vscode' ||
            entry.specifier.startsWith('vscode-languageclient') ||
            (CLIENT_NODE_MODULES.includes(entry.from) && entry.specifier.startsWith('node:'))
          : target.startsWith('client/src/') || CLIENT_SHARED_MODULES.includes(target);
      expect(allowed, `${entry.from} imports ${entry.specifier}`).toBe(true);
    }
  });

  describe('catches what it forbids (on made-up imports)', () => {
    it('an import of a higher layer', () => {
      const back = [{ from: `${SERVER}/model/build.ts`, specifier: '../engine/analyze.js' }];
      expect(layerViolations(back)).toEqual([
        `${SERVER}/model/build.ts imports ../engine/analyze.js: model/ may not import the higher layer engine/`,
      ]);
      const dynamic = importsOf(`${SERVER}/util/glob.ts`, "const m = await import('../rules/registry.js');");
      expect(layerViolations(dynamic)).toHaveLength(1);
      const reexport = importsOf(`${SERVER}/parser/loader.ts`, "export type { Span } from '../model/span.js';");
      expect(layerViolations(reexport)).toHaveLength(1);
    });

    it('an adapter importing the other one, and files outside the layers', () => {
      expect(layerViolations([{ from: `${SERVER}/lsp/server.ts`, specifier: '../cli/help.js' }])).toHaveLength(1);
      expect(layerViolations([{ from: `${SERVER}/cli/main.ts`, specifier: '../lsp/server.js' }])).toHaveLength(1);
      expect(layerViolations([{ from: `${SERVER}/core/types.ts`, specifier: './glob.js' }])).toHaveLength(1);
      expect(layerViolations([{ from: `${SERVER}/util/x.ts`, specifier: '../../../client/src/ids.js' }])).toHaveLength(1);
      // Downward and same-folder imports, packages and package.json are fine.
      const fine = [
        { from: `${SERVER}/engine/analyze.ts`, specifier: '../rules/registry.js' },
        { from: `${SERVER}/engine/analyze.ts`, specifier: './options.js' },
        { from: `${SERVER}/engine/version.ts`, specifier: '../../../package.json' },
        { from: `${SERVER}/main.ts`, specifier: './lsp/server.js' },
        { from: `${SERVER}/parser/loader.ts`, specifier: 'web-tree-sitter' },
      ];
      expect(layerViolations(fine)).toEqual([]);
    });

    it('a folder cycle', () => {
      const cycle = [
        { from: `${SERVER}/parser/loader.ts`, specifier: '../model/span.js' },
        { from: `${SERVER}/model/build.ts`, specifier: '../parser/loader.js' },
      ];
      expect(folderCycle(cycle)).toMatch(/^(parser -> model -> parser|model -> parser -> model)$/);
      expect(folderCycle(cycle.slice(1))).toBeUndefined();
    });
  });
});

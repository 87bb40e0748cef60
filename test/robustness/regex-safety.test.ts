// No regular expression in the shipped sources may backtrack super-linearly (issue 10: two of them hung the CLI and
// the language server on a few hundred bytes). Every literal and every `RegExp(...)` in server/src, client/src and
// scripts is found with the TypeScript parser and checked by recheck, a ReDoS checker; one built from a computed
// string cannot be checked statically, so each such construction must be listed below with why it is safe.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkSync, type Parameters } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRECTORIES = ['server/src', 'client/src', 'scripts'];

/**
 * Built at run time, reviewed by hand: `file: expression` → why it cannot backtrack. A new entry needs the same
 * argument; prefer a hand-written scan or a literal.
 */
const REVIEWED_DYNAMIC = new Map([
  ['server/src/util/glob.ts: new RegExp(`^[${source}]$`)', 'one character class (its `]` escaped), tested on one character'],
  ['server/src/engine/regex-path.ts: new RegExp(`[${body.slice(1)}]`)', 'one character class (no `\\` or `[` in it), tested on one character'],
  [
    "server/src/engine/regex-path.ts: new RegExp(source, ignoreCase ? 'i' : '')",
    'a location regex, tested only once it parsed in the subset: no lookaround or back-reference, no repeated group ' +
      'that repeats inside, no nested quantifier, at most three variable-length repeats, on a path of at most 200 ' +
      'characters: at worst cubic in 200',
  ],
  [
    "scripts/directive-table/c-tables.mjs: new RegExp(`\\\\b${typeName}[ \\\\t]+(\\\\w+)[ \\\\t]*\\\\[[ \\\\t]*\\\\][ \\\\t]*=[ \\\\t]*\\\\{`, 'g')",
    'typeName is a C type name from the script itself (an identifier, no metacharacters); after that literal, each ' +
      'run of blanks or word characters is followed by a different literal character, so no two quantifiers compete',
  ],
]);

/**
 * Without its time limits, so a verdict does not depend on how busy the machine is (the counting limits still bound
 * the work). The recall limit stays: the pure backend cannot validate by recall.
 */
const RECHECK: Parameters = { timeout: null, attackTimeout: null, incubationTimeout: null, seedingTimeout: null };
// checkSync runs in this process on recheck's pure-JavaScript implementation (read at each call): its default
// starts a worker that hangs under vitest, then looks for a JVM or a native binary.
process.env.RECHECK_SYNC_BACKEND = 'pure';

interface Found {
  /** `file:line`, relative to the repository. */
  where: string;
  file: string;
  /** A literal's (or a constant string's) source and flags. */
  source?: string;
  flags?: string;
  /** The text of a RegExp(...) call whose pattern is computed. */
  dynamic?: string;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(repoRoot, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A string literal or a template without substitutions (String.raw included): its value, else undefined. */
function constantString(node: ts.Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'String.raw' && ts.isNoSubstitutionTemplateLiteral(node.template)) {
    return node.template.rawText;
  }
  return undefined;
}

function regularExpressionsIn(file: string): Found[] {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const where = (node: ts.Node) => `${file}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText();
      const slash = literal.lastIndexOf('/');
      found.push({ where: where(node), file, source: literal.slice(1, slash), flags: literal.slice(slash + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText() === 'RegExp') {
      const [patternNode, flagsNode] = node.arguments ?? [];
      const source = constantString(patternNode);
      const flags = flagsNode === undefined ? '' : constantString(flagsNode);
      if (source !== undefined && flags !== undefined) found.push({ where: where(node), file, source, flags });
      else found.push({ where: where(node), file, dynamic: node.getText() });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

const found = SOURCE_DIRECTORIES.flatMap(sourceFiles).flatMap(regularExpressionsIn);

function verdict(source: string, flags: string): string {
  const diagnostics = checkSync(source, flags, RECHECK);
  if (diagnostics.status === 'safe') return 'safe';
  if (diagnostics.status === 'vulnerable') return `vulnerable (${diagnostics.complexity.type})`;
  return `unknown (${diagnostics.error.kind})`;
}

describe('regular expressions in the sources', () => {
  it('are all found: the extraction sees literals and constructor calls in every source directory', () => {
    expect(found.length).toBeGreaterThan(50);
    expect(found.some((regExp) => regExp.file === 'server/src/util/glob.ts' && regExp.source === '[*?[]')).toBe(true);
    expect(found.some((regExp) => regExp.file.startsWith('scripts/'))).toBe(true);
  });

  it('recheck, as configured here, flags the two expressions of the issue', () => {
    const sniff = String.raw`^[ \t]*(?:\{\{.*?\}\}[ \t]*)*[a-z_][a-z0-9_]*(?:[ \t]+[^\s=:][^\n]*)?[ \t]*[;{}][ \t]*(?:\{\{.*?\}\}[ \t]*)*(?:#.*)?$`;
    const argument = String.raw`\binclude\s+("[^"]*"|'[^']*'|(?:\{\{.*?\}\}|[^\s;{}])+)\s*;`;
    expect(verdict(sniff, 'm')).toBe('vulnerable (exponential)');
    expect(verdict(argument, 'g')).toMatch(/^vulnerable/);
    expect(verdict(String.raw`[ \t]*$`, '')).toBe('vulnerable (polynomial)');
  }, 120_000);

  it('are linear: recheck finds no super-linear backtracking in any literal', () => {
    const unsafe = found
      .filter((regExp) => regExp.source !== undefined)
      .map((regExp) => ({ where: regExp.where, regExp: `/${regExp.source}/${regExp.flags}`, verdict: verdict(regExp.source!, regExp.flags!) }))
      .filter((result) => result.verdict !== 'safe');
    expect(unsafe).toEqual([]);
  }, 300_000);

  it('are built from computed strings only where reviewed', () => {
    const dynamic = found.filter((regExp) => regExp.dynamic !== undefined).map((regExp) => `${regExp.file}: ${regExp.dynamic}`);
    expect(dynamic.filter((key) => !REVIEWED_DYNAMIC.has(key))).toEqual([]);
    // A reviewed entry that no longer exists is stale: drop it, so the list stays the list of what is there.
    expect([...REVIEWED_DYNAMIC.keys()].filter((key) => !dynamic.includes(key))).toEqual([]);
  });
});

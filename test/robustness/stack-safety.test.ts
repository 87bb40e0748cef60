// Spreading an array into a call passes every element as an argument on the stack: past ~125,000 elements V8 throws
// "RangeError: Maximum call stack size exceeded" (issue 10: a 300 KB file of `{}` made the CLI print "internal
// error" and lose its whole report). The sources must append with a loop instead; this scan, over the TypeScript
// syntax tree (comments may name what they avoid), keeps the pattern from coming back. Nothing is allow-listed:
// an array that is small today (one fix's edits, one file's findings) is large in someone's generated config.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { runCli, useTempTrees } from './support.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tree = useTempTrees();

/**
 * Calls whose spread argument is as long as the array: `x.push(...a)`, `Math.max(...a)`,
 * `String.fromCharCode(...a)` and the like. Matched by the called property's name, whatever the receiver.
 */
const ARGUMENT_SPREADING = new Set(['push', 'unshift', 'splice', 'max', 'min', 'fromCharCode', 'fromCodePoint']);

/** `file:line: callee(...)` for each call in `source` spreading an array into one of ARGUMENT_SPREADING. */
function spreadingCalls(file: string, source: string): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.some(ts.isSpreadElement)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
      if (ARGUMENT_SPREADING.has(name)) {
        const line = sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(`${file}:${line}: ${callee.getText()}(...)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(repoRoot, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)));
}

describe('the sources', () => {
  it('never spread an array into push(), Math.max() or another call taking one argument per element', () => {
    const files = [...sourceFiles('server/src'), ...sourceFiles('client/src')];
    expect(files.length).toBeGreaterThan(50);
    const calls = files.flatMap((file) => spreadingCalls(file, readFileSync(path.join(repoRoot, file), 'utf8')));
    expect(calls).toEqual([]);
  });

  it('the scan finds what it looks for, and not in comments or array literals', () => {
    const example = [
      'list.push(...items);',
      'this.queue.unshift(...more);',
      'const top = Math.max(...sizes);',
      'String.fromCharCode(...codes);',
      '// a comment saying found.push(...files) is fine',
      'const copy = [...items, ...more];',
      'path.join(base, ...segments);',
    ].join('\n');
    expect(spreadingCalls('example.ts', example)).toEqual([
      'example.ts:1: list.push(...)',
      'example.ts:2: this.queue.unshift(...)',
      'example.ts:3: Math.max(...)',
      'example.ts:4: String.fromCharCode(...)',
    ]);
  });
});

describe('a file of 150,000 statements', () => {
  it('gets its normal report (one finding per statement), not an internal error', () => {
    // 300 KB, under the default size limit: 150,000 statements of a directive no module has, each a finding of its
    // own. (150,000 `{}` no longer do: nginx stops at the first, and so does the syntax rule.)
    const root = tree({});
    writeFileSync(path.join(root, 'x.conf'), 'x;'.repeat(150_000));
    const result = runCli(root, ['check', '--format', 'json', 'x.conf']);
    expect(result.stderr).not.toMatch(/internal error|RangeError/);
    expect(result.status).toBe(1);
    const [file] = JSON.parse(result.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string }> }>;
    expect(path.basename(file!.filePath)).toBe('x.conf');
    expect(file!.messages).toHaveLength(150_000);
    expect(new Set(file!.messages.map((message) => message.ruleId))).toEqual(new Set(['directive']));
  });
});

// The features over the whole test corpus (real nginx configs, Dokku sigils, other Go templates), as properties:
// semantic tokens are always well-formed and paint every template action; symbols, hovers, definitions and
// references never throw and only point at text that exists.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import { actionRanges } from '../../server/src/analysis/template-text.js';
import type { FeatureContext, FeatureLocation } from '../../server/src/features/context.js';
import { hoverAt } from '../../server/src/features/hover.js';
import { definitionsAt, referencesAt } from '../../server/src/features/navigation.js';
import { LineIndex } from '../../server/src/features/positions.js';
import { collectSemanticTokens, MAX_TOKENIZED_LENGTH } from '../../server/src/features/semantic-tokens.js';
import { documentSymbols, type OutlineSymbol } from '../../server/src/features/symbols.js';
import type { Directive } from '../../server/src/model/types.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { entries } from '../corpus/manifest.js';

const files = entries.map((entry) => ({ name: entry.file, path: entry.absPath, kind: entry.kind }));

/** Problems with one file's tokens, as readable strings (empty when all is well). */
function tokenProblems(text: string, tokens: ReturnType<typeof collectSemanticTokens>): string[] {
  const index = new LineIndex(text);
  const problems: string[] = [];
  let previousEnd = -1;
  const covered: Array<[number, number, string]> = [];
  for (const token of tokens) {
    const start = index.lineStart(token.line) + token.character;
    const end = start + token.length;
    if (token.length <= 0 || end > index.lineContentEnd(token.line)) problems.push(`token past its line at ${token.line}`);
    if (start < previousEnd) problems.push(`overlap or disorder at ${token.line}:${token.character}`);
    if (token.type === 'variable' && text[start] !== '$') problems.push(`variable token "${text.slice(start, end)}"`);
    previousEnd = end;
    covered.push([start, end, token.type]);
  }
  const paints = (offset: number) => covered.some(([s, e, type]) => s <= offset && offset < e && (type === 'macro' || type === 'comment'));
  for (const [start, end] of actionRanges(text)) {
    if (!paints(start) || !paints(end - 1)) problems.push(`unpainted action ${JSON.stringify(text.slice(start, end)).slice(0, 60)}`);
  }
  return problems;
}

describe('features over the corpus', () => {
  it('gives every file well-formed semantic tokens that paint each template action', async () => {
    const parser = await loadNginxParser();
    const problems: string[] = [];
    for (const file of files) {
      const text = readFileSync(file.path, 'utf8');
      if (text.length > MAX_TOKENIZED_LENGTH) continue;
      // In a plain nginx file a `{{` is text (in a comment, a Lua table), not an action: only templates must paint it.
      const tokens = collectSemanticTokens(parser, text);
      const found = tokenProblems(text, tokens).filter((problem) => !problem.startsWith('unpainted') || file.kind !== 'nginx');
      problems.push(...found.map((problem) => `${file.name}: ${problem}`));
    }
    expect(problems).toEqual([]);
  });

  it('answers symbols, hovers, definitions and references in templates without throwing or pointing nowhere', async () => {
    const templates = files.filter((file) => file.kind !== 'nginx');
    expect(templates.length).toBeGreaterThan(100);
    const problems: string[] = [];
    let hovers = 0;
    for (const file of templates) {
      const text = readFileSync(file.path, 'utf8');
      const { workspace } = await analyzeWorkspace([{ path: file.path, text }]);
      const model = workspace.files.find((candidate) => candidate.path === file.path)!;
      const ctx: FeatureContext = { workspace, file: model, options: {} };
      problems.push(...symbolProblems(documentSymbols(model), text).map((problem) => `${file.name}: ${problem}`));
      for (const offset of interestingOffsets(model.directives)) {
        const hover = hoverAt(ctx, offset);
        if (hover) {
          hovers++;
          if (hover.span.startOffset > offset || hover.span.endOffset < offset) problems.push(`${file.name}: hover span misses ${offset}`);
        }
        for (const location of [...definitionsAt(ctx, offset), ...referencesAt(ctx, offset, true)]) {
          if (!pointsAtText(location)) problems.push(`${file.name}: location outside ${location.file.path}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(hovers).toBeGreaterThan(500);
  });
});

/** The start of every directive name and argument, and one past the end of each argument. */
function interestingOffsets(directives: readonly Directive[]): number[] {
  return directives.flatMap((directive) => [
    directive.nameSpan.startOffset,
    ...directive.args.flatMap((argument) => [argument.span.startOffset + 1, argument.span.endOffset]),
    ...interestingOffsets(directive.children),
  ]);
}

function pointsAtText(location: FeatureLocation): boolean {
  const { startOffset, endOffset } = location.span;
  return startOffset >= 0 && startOffset <= endOffset && endOffset <= location.file.text.length;
}

function symbolProblems(symbols: readonly OutlineSymbol[], text: string): string[] {
  return symbols.flatMap((symbol) => {
    const problems: string[] = [];
    if (symbol.name.trim() === '' || /\n/.test(symbol.name)) problems.push(`bad symbol name ${JSON.stringify(symbol.name)}`);
    const { range, selectionRange } = symbol;
    if (selectionRange.startOffset < range.startOffset || selectionRange.endOffset > range.endOffset) {
      problems.push(`selection outside range: ${symbol.name}`);
    }
    if (!text.slice(range.startOffset, range.endOffset).startsWith(symbol.detail)) problems.push(`range misses ${symbol.name}`);
    return [...problems, ...symbolProblems(symbol.children, text)];
  });
}

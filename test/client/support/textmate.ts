// The extension's TextMate grammars, loaded the way VS Code loads them: from package.json's contributes.grammars
// (paths, injectTo), tokenized by vscode-textmate on vscode-oniguruma's WASM build, the versions code-server 4.100.3
// ships. Scopes no contribution provides (source.lua, text.html.markdown) are absent unless a test supplies a host
// grammar, as in an editor without them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import oniguruma from 'vscode-oniguruma';
import vsctm from 'vscode-textmate';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

export interface GrammarContribution {
  language?: string;
  scopeName: string;
  path: string;
  injectTo?: string[];
  embeddedLanguages?: Record<string, string>;
}

export const grammarContributions = (
  JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { grammars?: GrammarContribution[] } }
).contributes.grammars ?? [];

export function grammarFile(contribution: GrammarContribution): string {
  return path.join(repoRoot, contribution.path);
}

export interface Token {
  text: string;
  scopes: string[];
}

export interface TokenizedLine {
  tokens: Token[];
  stoppedEarly: boolean;
  /** How many rules are open after the line (1: none but the grammar's own, as at the start). */
  depth: number;
}

/** Long enough never to trip on a busy machine, short enough that a backtracking regex would: 1 s a line. */
export const LINE_TIME_LIMIT_MS = 1_000;

let onigurumaReady: Promise<void> | undefined;

function loadOniguruma(): Promise<void> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm'));
  onigurumaReady ??= oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  return onigurumaReady;
}

export class Grammars {
  private readonly registry: vsctm.Registry;

  /** `hosts`: extra grammars by scope name (raw JSON objects), standing in for other extensions' grammars. */
  constructor(hosts: Record<string, object> = {}) {
    this.registry = new vsctm.Registry({
      onigLib: loadOniguruma().then(() => ({
        createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      })),
      loadGrammar: async (scopeName) => {
        if (hosts[scopeName]) return vsctm.parseRawGrammar(JSON.stringify(hosts[scopeName]), `${scopeName}.json`);
        const contribution = grammarContributions.find((grammar) => grammar.scopeName === scopeName);
        if (!contribution) return null;
        const file = grammarFile(contribution);
        return vsctm.parseRawGrammar(readFileSync(file, 'utf8'), file);
      },
      getInjections: (scopeName) =>
        grammarContributions.filter((grammar) => grammar.injectTo?.includes(scopeName)).map((grammar) => grammar.scopeName),
    });
  }

  /** `timeLimit` 0: no limit (the test's own timeout is then the only guard against a hang). */
  async tokenize(scopeName: string, text: string, timeLimit = LINE_TIME_LIMIT_MS): Promise<TokenizedLine[]> {
    const grammar = await this.registry.loadGrammar(scopeName);
    if (!grammar) throw new Error(`no grammar for ${scopeName}`);
    let state = vsctm.INITIAL;
    return text.split(/\r?\n/).map((line) => {
      const result = grammar.tokenizeLine(line, state, timeLimit);
      state = result.ruleStack;
      const tokens = result.tokens.map((token) => ({ text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes }));
      return { tokens, stoppedEarly: result.stoppedEarly, depth: state.depth };
    });
  }
}

/**
 * The scopes of the first token whose text (trimmed) is `tokenText` on the first line whose text (trimmed) is
 * `lineText`.
 */
export function scopesOf(lines: TokenizedLine[], source: string, lineText: string, tokenText: string): string[] {
  const index = source.split(/\r?\n/).findIndex((line) => line.trim() === lineText);
  if (index === -1) throw new Error(`no line ${JSON.stringify(lineText)}`);
  const token = lines[index]!.tokens.find((candidate) => candidate.text.trim() === tokenText);
  if (!token) {
    const found = lines[index]!.tokens.map((candidate) => candidate.text);
    throw new Error(`no token ${JSON.stringify(tokenText)} on line ${index + 1}: ${JSON.stringify(found)}`);
  }
  return token.scopes;
}

/**
 * A line as `text → innermost scope` pairs, for readable assertions: neighbouring tokens with the same innermost scope
 * are merged (a rule's begin, content and end often share it), texts are trimmed and blank ones dropped.
 */
export function innermost(line: TokenizedLine): [string, string][] {
  const merged: [string, string][] = [];
  for (const token of line.tokens) {
    const scope = token.scopes.at(-1)!;
    const last = merged.at(-1);
    if (last && last[1] === scope) last[0] += token.text;
    else merged.push([token.text, scope]);
  }
  return merged.map(([text, scope]): [string, string] => [text.trim(), scope]).filter(([text]) => text !== '');
}

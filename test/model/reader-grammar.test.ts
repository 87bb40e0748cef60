// The text reader (model/text-reader.ts) reads tokens as the grammar does, with the character classes of
// model/plain-tokens.ts. This test holds each of those classes to the grammar's own definition, read mechanically from
// grammars/nginx/src/grammar.json (what `tree-sitter generate` made of grammar.js) and from the external scanner's C
// source (grammars/nginx/src/scanner.c): its predicates are evaluated, not copied. A change to either side alone fails
// here; so does a reshaping of the scanner that hides a definition from this test (then teach the test the new shape).
// The differential property test (test/property/text-reader.test.ts) checks the readers agree on whole texts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as luaBody from '../../server/src/model/lua-body.js';
import * as plainTokens from '../../server/src/model/plain-tokens.js';

const lexicon = { ...plainTokens, ...luaBody };

const GRAMMAR_DIR = path.resolve(import.meta.dirname, '../../grammars/nginx/src');

interface RuleNode {
  type: string;
  value?: string | number;
  name?: string;
  content?: RuleNode;
  members?: RuleNode[];
}

const grammar = JSON.parse(readFileSync(path.join(GRAMMAR_DIR, 'grammar.json'), 'utf8')) as {
  extras: RuleNode[];
  rules: Record<string, RuleNode>;
};
const scanner = readFileSync(path.join(GRAMMAR_DIR, 'scanner.c'), 'utf8');

/** A rule with its TOKEN/PREC/FIELD/ALIAS wrappers removed. */
function unwrap(node: RuleNode): RuleNode {
  let current = node;
  while (current.content && !['REPEAT', 'REPEAT1'].includes(current.type)) current = current.content;
  return current;
}

function rule(name: string): RuleNode {
  const found = grammar.rules[name];
  if (!found) throw new Error(`grammar.json has no rule ${name}`);
  return unwrap(found);
}

function members(node: RuleNode, type: 'CHOICE' | 'SEQ'): RuleNode[] {
  if (node.type !== type || !node.members) throw new Error(`expected ${type}, got ${JSON.stringify(node).slice(0, 80)}`);
  return node.members.map(unwrap);
}

function stringValue(node: RuleNode): string {
  if (node.type !== 'STRING') throw new Error(`expected STRING, got ${node.type}`);
  return String(node.value);
}

/** The literal tokens a rule opens and closes with: `block` is `{` … `}`. */
function delimiters(name: string): string {
  const parts = members(rule(name), 'SEQ');
  return stringValue(parts[0]!) + stringValue(parts[parts.length - 1]!);
}

/** A grammar PATTERN as a JavaScript RegExp for a whole string (these patterns use no syntax the two read apart). */
function fullMatch(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}

const ASCII = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
const BMP = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)).filter((c) => !/[\ud800-\udfff]/.test(c));

/** The characters (of `among`) for which `test` holds, as a sorted string: sets compare as strings. */
function charsWhere(test: (c: string) => boolean, among: readonly string[] = ASCII): string {
  return among.filter(test).join('');
}

function sorted(chars: string): string {
  return [...new Set(chars)].sort().join('');
}

/** The body of a C function of scanner.c, braces matched (comments, char literals and strings skipped). */
function cFunction(name: string): string {
  const head = new RegExp(`^static [^\\n(]*\\b${name}\\(`, 'm').exec(scanner);
  if (!head) throw new Error(`scanner.c has no function ${name}`);
  const open = scanner.indexOf('{', head.index);
  let depth = 0;
  for (let i = open; i < scanner.length; i++) {
    const c = scanner[i];
    if (scanner.startsWith('//', i)) {
      i = scanner.indexOf('\n', i);
    } else if (scanner.startsWith('/*', i)) {
      i = scanner.indexOf('*/', i) + 1;
    } else if (c === "'" || c === '"') {
      for (i++; scanner[i] !== c; i++) if (scanner[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return scanner.slice(open + 1, i);
  }
  throw new Error(`unbalanced braces in ${name}`);
}

/**
 * A C boolean expression over one character, evaluated for a character: C char literals are JavaScript strings of
 * one character with the same escapes, and comparing one-character strings compares their codes, as C compares ints.
 */
type CharTest = (c: string) => boolean;

function cPredicate(expression: string, variable: string, helpers: Record<string, CharTest> = {}): CharTest {
  const names = Object.keys(helpers);
  const fn = new Function(variable, ...names, `return (${expression});`) as (c: string, ...h: unknown[]) => boolean;
  return (c) => fn(c, ...names.map((n) => helpers[n]));
}

/** A one-line C predicate `static bool name(int32_t c) { return …; }`, evaluated. */
function cCharClass(name: string): (c: string) => boolean {
  const match = /^\s*return ([^;]*);\s*$/.exec(cFunction(name));
  if (!match) throw new Error(`${name} is no longer one return statement`);
  return cPredicate(match[1]!, 'c');
}

/** The condition of the first `if (…) <then>` in `body` whose condition contains `needle`. */
function cCondition(body: string, needle: string, then: string): string {
  for (const match of body.matchAll(/if \((.*)\) ([^\n]*)/g)) {
    if (match[1]!.includes(needle) && match[2]!.startsWith(then)) return match[1]!;
  }
  throw new Error(`no \`if (…${needle}…) ${then}\` in the scanner`);
}

const isSpace = cCharClass('is_space');
const isVariableChar = cCharClass('is_variable_char');
const isIdentifierStart = cCharClass('is_identifier_start');
const wordFragment = cFunction('scan_word_fragment');

describe('the text reader reads the grammar’s tokens', () => {
  it('white space is the scanner’s is_space; every other space of the grammar’s extras sends the text to the tree', () => {
    expect(sorted(lexicon.SPACE_CHARS)).toBe(charsWhere(isSpace));
    const extras = grammar.extras.filter((node) => node.type === 'PATTERN').map((node) => fullMatch(String(node.value)));
    expect(extras).toHaveLength(1);
    const grammarSpace = BMP.filter((c) => extras[0]!.test(c));
    for (const c of lexicon.SPACE_CHARS) expect(grammarSpace).toContain(c);
    const unread = grammarSpace.filter((c) => !lexicon.SPACE_CHARS.includes(c) && !lexicon.UNUSUAL_SPACE.test(c));
    expect(unread.map((c) => c.charCodeAt(0).toString(16))).toEqual([]);
  });

  it('name characters are the scanner’s and the variable and directive_name patterns’', () => {
    expect(sorted(lexicon.NAME_CHARS)).toBe(charsWhere(isVariableChar));
    expect(sorted(lexicon.IDENTIFIER_START_CHARS)).toBe(charsWhere(isIdentifierStart));
    const name = fullMatch(String(rule('directive_name').value));
    expect(sorted(lexicon.IDENTIFIER_START_CHARS)).toBe(charsWhere((c) => name.test(c), BMP));
    expect(sorted(lexicon.NAME_CHARS)).toBe(charsWhere((c) => name.test(`_${c}`), BMP));
  });

  it('a directive_name is an identifier, and a Lua block’s name one with the Lua suffix', () => {
    const name = fullMatch(String(rule('directive_name').value));
    const probes = ['', ...ASCII, ...ASCII.map((c) => `a${c}`), ...ASCII.map((c) => `${c}1`), 'é', 'aé'];
    for (const probe of probes) expect(lexicon.isIdentifier(probe, 0, probe.length), probe).toBe(name.test(probe));
    expect(String(rule('_lua_block_name').value)).toBe(`${String(rule('directive_name').value)}${lexicon.LUA_BLOCK_SUFFIX}`);
  });

  it('a bare word ends where scan_word_fragment ends it, and cannot start with what starts another token', () => {
    const ends = cPredicate(cCondition(wordFragment, 'is_space(c)', 'break'), 'c', { is_space: isSpace });
    expect(sorted(lexicon.SPACE_CHARS + lexicon.WORD_END_CHARS)).toBe(charsWhere(ends));
    const atStart = cCondition(wordFragment, 'at_token_start', 'return false').replace('at_token_start &&', '');
    const notFirst = cPredicate(atStart, 'first');
    expect(sorted(lexicon.TOKEN_START_CHARS)).toBe(charsWhere(notFirst));
    // Checked through the reader's own functions too: a fragment stops exactly there.
    for (const c of ASCII) {
      if (c !== lexicon.VARIABLE_SIGIL) expect(lexicon.fragmentEnd(`a${c}b`, 0), JSON.stringify(c)).toBe(ends(c) ? 1 : 3);
    }
  });

  it('the escape character is the scanner’s, in words, strings and conditions', () => {
    // `if (c == X) { advance(lexer); if (!lexer->eof(lexer)) advance(lexer);`: X and the character after it are text.
    const escape = /if \(c == ('(?:\\.|[^'])')\) \{\s*advance\(lexer\);\s*if \(!lexer->eof\(lexer\)\) advance\(lexer\);/g;
    const escapes = (body: string) => [...body.matchAll(escape)].map((m) => cPredicate(m[1]!, 'unused')(''));
    for (const name of ['scan_word_fragment', 'scan_quoted_content', 'scan_condition_text']) {
      expect(escapes(cFunction(name)), name).toEqual([lexicon.ESCAPE_CHAR]);
    }
  });

  it('variables are the grammar’s `variable` token, and a `$` starts one where the scanner says', () => {
    const sigil = members(rule('_variable_or_dollar'), 'CHOICE').filter((node) => node.type === 'STRING');
    expect(sigil.map(stringValue)).toEqual([lexicon.VARIABLE_SIGIL]);
    const starts = cPredicate(
      cFunction('dollar_starts_variable').match(/return ([^;]*);/)![1]!.replaceAll('lexer->lookahead', 'c'),
      'c',
      { is_variable_char: isVariableChar },
    );
    expect(charsWhere((c) => lexicon.startsVariable(`${lexicon.VARIABLE_SIGIL}${c}`, 0))).toBe(charsWhere(starts));
    // Every text of up to four characters over an alphabet of the variable's parts: where the grammar's token ends
    // (longest match), the reader's does; where the grammar has none after a `$` that starts one, the reader bails.
    const forms = members(rule('variable'), 'CHOICE').map((node) => new RegExp(`^(?:${String(node.value)})`, 'u'));
    const alphabet = ['$', '{', '}', 'a', 'Z', '0', '_', '-', ' ', 'é'];
    let texts = ['$'];
    for (let length = 1; length < 4; length++) {
      texts = texts.concat(texts.filter((t) => t.length === length).flatMap((t) => alphabet.map((a) => t + a)));
    }
    for (const text of texts) {
      const grammarEnd = Math.max(0, ...forms.map((form) => form.exec(text)?.[0].length ?? 0));
      const readerEnd = !lexicon.startsVariable(text, 0) ? 0 : tryEnd(() => lexicon.variableEnd(text, 0));
      expect(readerEnd, text).toBe(grammarEnd === 0 && lexicon.startsVariable(text, 0) ? 'bail' : grammarEnd);
    }
  });

  it('a Lua block’s body ends where scan_lua_code ends it: its strings, comments and long brackets are the scanner’s', () => {
    const [open, close] = lexicon.LUA_BRACKETS;
    const code = cFunction('scan_lua_code');
    expect(code).toContain(`c == '${lexicon.QUOTE_CHARS[0]}' || c == '\\${lexicon.QUOTE_CHARS[1]}'`);
    expect(code).toContain(`c == '${open}'`);
    expect(code).toContain(`c == '${lexicon.LUA_COMMENT_CHAR}'`);
    expect(code).toContain(`lexer->lookahead == '${lexicon.LUA_COMMENT_CHAR}'`);
    expect(cFunction('scan_lua_comment')).toContain(`lexer->lookahead == '${open}'`);
    expect(cFunction('scan_lua_comment')).toContain(`lexer->lookahead != '\\n'`);
    expect(cFunction('scan_lua_quoted')).toContain(`lexer->lookahead != '\\n'`);
    expect(cFunction('scan_lua_quoted')).toContain(`lexer->lookahead == '${lexicon.ESCAPE_CHAR}${lexicon.ESCAPE_CHAR}'`);
    const bracket = cFunction('scan_lua_bracket');
    expect(bracket).toContain(`lexer->lookahead == '${lexicon.LUA_BRACKET_LEVEL}'`);
    expect(bracket).toContain(`lexer->lookahead == '${open}'`);
    const body = cFunction('skip_lua_long_bracket_body');
    expect(body).toContain(`c != '${close}'`);
    expect(body).toContain(`lexer->lookahead == '${lexicon.LUA_BRACKET_LEVEL}'`);
    expect(body).toContain(`lexer->lookahead == '${close}'`);
    // Checked through the reader's own function too: the `}` that ends each body.
    const bodies = ['}', ' a }', '"}" }', "'}\\'}' }", '"a\n}', '-- }\n}', '--[[ } ]] }', '--[ }', '[==[ ]] } ]==] }', '[= }', '{ } }', '- }'];
    const ends = bodies.map((b) => lexicon.luaBodyEnd(b, 0));
    expect(ends).toEqual([0, 3, 4, 7, 3, 5, 10, 4, 15, 3, 4, 2]);
  });

  it('quotes, comments, statement ends, blocks and conditions are the grammar’s', () => {
    const quotes = members(rule('string'), 'CHOICE').map((form) => {
      const parts = members(form, 'SEQ');
      expect(stringValue(parts[0]!)).toBe(stringValue(parts[parts.length - 1]!));
      return stringValue(parts[0]!);
    });
    expect(sorted(lexicon.QUOTE_CHARS)).toBe(sorted(quotes.join('')));
    expect(charsWhere((c) => lexicon.isQuoteCode(c.charCodeAt(0)))).toBe(sorted(quotes.join('')));

    const [open, rest] = members(rule('comment'), 'SEQ');
    expect(lexicon.COMMENT_OPEN).toBe(stringValue(open!));
    const line = fullMatch(String(rest!.value));
    // One character: only the comment end (LF) and CR (text only when more text follows it) cannot be a comment's.
    expect(sorted(lexicon.COMMENT_END_CHAR + String.fromCharCode(lexicon.CR))).toBe(charsWhere((c) => !line.test(c), BMP));
    // Every text of up to five characters over an alphabet of what a comment's end depends on: the grammar's comment
    // token (its longest match) ends where commentEnd ends it.
    const alphabet = ['a', '\r', '\n', '#', ' '];
    let texts = [lexicon.COMMENT_OPEN];
    for (let length = 1; length < 6; length++) {
      texts = texts.concat(texts.filter((t) => t.length === length).flatMap((t) => alphabet.map((a) => t + a)));
    }
    for (const text of texts) {
      let grammarEnd = 1;
      for (let end = 2; end <= text.length; end++) if (line.test(text.slice(1, end))) grammarEnd = end;
      expect(lexicon.commentEnd(text, 0), JSON.stringify(text)).toBe(grammarEnd);
      // A comment without an LF runs on to the next line, the CRs before it (if any) skipped as white space.
      if (!text.includes('\n')) expect(lexicon.skipSpaceAndComments(`${text}\nx`, 0), JSON.stringify(text)).toBe(text.length + 1);
    }

    const endings = members(rule('directive'), 'SEQ').at(-1)!;
    expect(members(endings, 'CHOICE').filter((node) => node.type === 'STRING').map(stringValue)).toEqual([lexicon.STATEMENT_END]);
    expect(lexicon.BLOCK_BRACES).toBe(delimiters('block'));
    expect(lexicon.BLOCK_BRACES).toBe(delimiters('lua_block'));
    expect(lexicon.CONDITION_PARENS).toBe(delimiters('condition'));
  });

  it('template actions open as the grammar’s Go and Jinja openers and the scanner’s Jinja comment do', () => {
    const opens = (name: string) => members(rule(name), 'CHOICE').map((node) => stringValue(node).slice(0, 2));
    const jinjaComment = [...cFunction('scan_jinja_comment').matchAll(/lexer->lookahead != ('(?:\\.|[^'])')/g)];
    const comment = jinjaComment.map((m) => cPredicate(m[1]!, 'unused')('')).join('');
    const grammarOpeners = new Set([...opens('_template_open'), ...opens('_jinja_open'), comment]);
    expect([...lexicon.TEMPLATE_OPENERS].sort()).toEqual([...grammarOpeners].sort());
    for (const opener of grammarOpeners) expect(lexicon.opensTemplateAction(`a${opener}`, 1), opener).toBe(true);
  });
});

function tryEnd(read: () => number): number | 'bail' {
  try {
    return read();
  } catch (error) {
    if (error instanceof lexicon.Bail) return 'bail';
    throw error;
  }
}

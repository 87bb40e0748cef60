// Which template language a file is written in, for reading its `{{ }}` actions and for writing fixes in it.
//
//   dialectByName(path)          'jinja' for `.j2`/`.jinja`/`.jinja2`, 'go' for `.sigil`/`.tmpl`, else undefined
//   templateDialectOf(path, text) the name's dialect, else by content: a Jinja tag (`{%`) or a closed Jinja comment
//                                 (`{# ... #}`) makes it Jinja; anything else (only `{{ }}` actions) is Go
//
// The grammar reads `{% %}` and `{# #}` in every file (grammars/nginx/grammar.js); the dialect only decides what a
// `{{ if ... }}` means (a Go control, or in Jinja an expression) and which language a fix writes.
import type { TemplateDialect } from './types.js';

const JINJA_NAME = /\.(j2|jinja2?)$/i;
const GO_NAME = /\.(sigil|tmpl)$/i;

export function dialectByName(path: string): TemplateDialect | undefined {
  if (JINJA_NAME.test(path)) return 'jinja';
  if (GO_NAME.test(path)) return 'go';
  return undefined;
}

/** True when the text has a Jinja tag or a closed Jinja comment (linear: each search starts once). */
export function hasJinjaSyntax(text: string): boolean {
  if (text.includes('{%')) return true;
  const comment = text.indexOf('{#');
  return comment !== -1 && text.includes('#}', comment + 2);
}

export function templateDialectOf(path: string, text: string): TemplateDialect {
  return dialectByName(path) ?? (hasJinjaSyntax(text) ? 'jinja' : 'go');
}

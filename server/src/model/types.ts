// The config model: what rules read. Built once per parse from the tree, so rules never touch tree-sitter objects
// (trees can be freed or cached independently of the findings computed from them).
import type { Span } from '../util/types.js';

export type ContextName =
  | 'main'
  | 'events'
  | 'http'
  | 'server'
  | 'location'
  | 'upstream'
  | 'if'
  | 'limit_except'
  | 'map'
  | 'geo'
  | 'types'
  | 'split_clients'
  | 'stream'
  | 'mail'
  | 'lua'
  | 'block'; // any other block directive (e.g. a third-party module's)

export interface Variable {
  name: string; // without `$`, `{`, `}`
  span: Span;
}

export interface Argument {
  /** Source text as written, quotes included. */
  raw: string;
  /** The value nginx sees: quotes removed, `\"`-style escapes resolved. Template actions kept as written. */
  value: string;
  quoted: false | '"' | "'";
  span: Span;
  variables: Variable[];
  /** True when any part of the argument is a `{{ ... }}` action: its value is unknown until rendered. */
  templated: boolean;
}

export type TemplateKeyword =
  | 'if'
  | 'else'
  | 'else if'
  | 'range'
  | 'with'
  | 'end'
  | 'define'
  | 'block'
  | 'template'
  | 'break'
  | 'continue'
  // A Jinja tag that opens a scope rendered exactly once (`{% with %}`, `{% filter %}`, `{% autoescape %}`...): paired
  // with its end tag, but no guard.
  | 'scope';

/** `go`: Go text/template (Dokku sigils, ingress-nginx); `jinja`: Jinja2 (Ansible, Salt). */
export type TemplateDialect = 'go' | 'jinja';

/**
 * A statement-level template control action, e.g. `{{ if $.PROXY_KEEPALIVE }}` or `{% if nginx_keepalive %}`. Jinja
 * tags are read as the Go keyword of the same meaning (`for` as `range`, `elif` as `else if`, `endif` as `end`,
 * `macro` as `define`, `include` as `template`), so pairing and guards work alike for both.
 */
export interface TemplateControl {
  keyword: TemplateKeyword;
  /** Absent for Go actions. */
  dialect?: 'jinja';
  /** The Jinja tag's own first word (`for`, `elif`, `endfor`); absent for Go actions. */
  tag?: string;
  /** The pipeline after the keyword (`$.PROXY_KEEPALIVE`); for `else if` the condition after `if`. */
  pipeline: string;
  span: Span;
}

/** An open template scope enclosing a directive: `{{ if X }}` (or its `{{ else }}` branch), `{{ range }}`, `{{ with }}`. */
export interface TemplateGuard {
  control: TemplateControl;
  /** True inside the `{{ else }}` / `{{ else if }}` branch of the guard. */
  inElse: boolean;
  /** The `{{ else }}` / `{{ else if X }}` action that opened the current branch, when inElse. */
  branch?: TemplateControl;
}

export interface Directive {
  name: string;
  nameSpan: Span;
  args: Argument[];
  /** From the first character of the name to the `;` or the closing `}` inclusive. */
  span: Span;
  /** The `{ ... }` block, braces included; undefined for simple directives. */
  blockSpan?: Span;
  /** Statements inside the block (not for `*_by_lua_block` bodies). */
  children: Directive[];
  /** The `if (...)` condition text as written, parentheses included. */
  condition?: string;
  parent: Directive | undefined;
  /** Read-only: a model's statements share their file's holder (directive-node.ts). */
  readonly file: ConfigFile;
  /** Template scopes that enclose this directive, outermost first. */
  guards: TemplateGuard[];
  /** The column where the directive's line starts its indentation (for edits that keep style). */
  indent: string;
}

export interface SyntaxProblem {
  message: string;
  span: Span;
}

export interface ConfigFile {
  path: string;
  text: string;
  /** Top-level statements. */
  directives: Directive[];
  templateControls: TemplateControl[];
  syntaxProblems: SyntaxProblem[];
  /** Context stated by `# nginx-keepalive: context=<name>` at the top of the file. */
  statedContext?: ContextName;
  /** True when the text has template actions: `{{ ... }}` (a Go template such as a Dokku sigil), or Jinja tags. */
  isTemplate: boolean;
  /**
   * The template language, when isTemplate: by the file's name (`.j2`, `.jinja`, `.jinja2`: Jinja; `.sigil`, `.tmpl`:
   * Go), else by its text (a Jinja tag or comment: Jinja; else Go). Fixes write template text in it.
   */
  templateDialect?: TemplateDialect;
  eol: '\n' | '\r\n';
}

/**
 * Models already built for a file's exact text (the language server keeps one per open document, re-parsed
 * incrementally). analyze() asks before parsing; a miss parses as usual. Models are immutable once built.
 */
export interface ModelCache {
  get(path: string, text: string): ConfigFile | undefined;
}

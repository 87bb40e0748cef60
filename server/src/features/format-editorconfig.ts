// The indentation settings `.editorconfig` files give a file (https://editorconfig.org): indent_style, indent_size
// and tab_width, nothing else. Headless: the caller passes how to read a file and where the search must stop, so the
// CLI and the language server decide what may be read (only inside the checked paths or the workspace).
//
// Bounded: at most MAX_EDITORCONFIG_DIRECTORIES directories up, files over MAX_EDITORCONFIG_BYTES are ignored (the
// reader enforces it), a section glob expands to at most MAX_BRACE_EXPANSIONS alternatives, and globs are matched by
// util/glob.ts's automaton (linear in the path, no backtracking).
import path from 'node:path';
import { compileGlob } from '../util/glob.js';
import { DEFAULT_FORMAT_OPTIONS, type FormatOptions } from './format-layout.js';

export const MAX_EDITORCONFIG_BYTES = 64 * 1024;
const MAX_EDITORCONFIG_DIRECTORIES = 64;
const MAX_BRACE_EXPANSIONS = 256;
const MAX_GLOB_LENGTH = 4096;
const MAX_SIZE = 64;

/** Reads a file's text; undefined when it is missing, unreadable or over MAX_EDITORCONFIG_BYTES. */
export type ReadEditorConfig = (file: string) => string | undefined;

/** A Map, not an object: a key such as `__proto__` in a file must stay a key. */
type Properties = Map<string, string>;

interface Section {
  glob: string;
  properties: Properties;
}

interface EditorConfigFile {
  root: boolean;
  sections: Section[];
}

export function parseEditorConfig(text: string): EditorConfigFile {
  const file: EditorConfigFile = { root: false, sections: [] };
  let current: Section | undefined;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      current = { glob: line.slice(1, -1), properties: new Map() };
      file.sections.push(current);
      continue;
    }
    const equals = line.indexOf('=');
    if (equals === -1) continue;
    const key = line.slice(0, equals).trim().toLowerCase();
    const value = line.slice(equals + 1).trim().toLowerCase();
    if (current) current.properties.set(key, value);
    else if (key === 'root') file.root = value === 'true';
  }
  return file;
}

/** `{a,b}` and `{1..3}` expanded (nested too); undefined when there would be more than MAX_BRACE_EXPANSIONS. */
export function expandBraces(glob: string): string[] | undefined {
  const open = findBrace(glob);
  if (open === -1) return [glob];
  const close = matchingBrace(glob, open);
  if (close === -1) return [glob];
  const alternatives = braceAlternatives(glob.slice(open + 1, close));
  if (alternatives === undefined) return undefined;
  const results: string[] = [];
  for (const alternative of alternatives) {
    const expanded = expandBraces(glob.slice(0, open) + alternative + glob.slice(close + 1));
    if (expanded === undefined || results.length + expanded.length > MAX_BRACE_EXPANSIONS) return undefined;
    for (const one of expanded) results.push(one);
  }
  return results;
}

function findBrace(glob: string): number {
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '{') return i;
  }
  return -1;
}

function matchingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The alternatives of one brace body: split at top-level commas, or a numeric range; a lone word stays braced. */
function braceAlternatives(body: string): string[] | undefined {
  const range = /^(-?\d{1,9})\.\.(-?\d{1,9})$/.exec(body);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (Math.abs(to - from) >= MAX_BRACE_EXPANSIONS) return undefined;
    const step = from <= to ? 1 : -1;
    const numbers: string[] = [];
    for (let n = from; n !== to + step; n += step) numbers.push(String(n));
    return numbers;
  }
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts.length === 1 ? [`\\{${body}\\}`] : parts;
}

/** Whether a section's glob selects `relative` (the file's path from the .editorconfig's directory, `/`-separated). */
export function sectionMatches(glob: string, relative: string): boolean {
  if (glob.length > MAX_GLOB_LENGTH) return false;
  // No `/`: the name anywhere below; with one, a path from the .editorconfig's directory.
  const anchored = glob.includes('/') ? glob.replace(/^\//, '') : `**/${glob}`;
  const alternatives = expandBraces(anchored);
  if (!alternatives) return false;
  return alternatives.some((alternative) => compileGlob(unescape(alternative), { globstar: true }).test(relative));
}

/** util/glob.ts has no escapes: `\x` is the character x (a `\` before a glob character cannot be said there). */
function unescape(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) out += glob[i] === '\\' && i + 1 < glob.length ? glob[++i] : glob[i];
  return out;
}

function positiveInteger(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,3}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= 1 && number <= MAX_SIZE ? number : undefined;
}

/**
 * The settings `.editorconfig` files give `file`, nearest winning, as far up as `boundary` (inclusive) or a file
 * saying `root = true`. Only the options they set are returned.
 */
export function editorConfigFor(file: string, boundary: string, read: ReadEditorConfig): Partial<FormatOptions> {
  const found: Array<{ directory: string; config: EditorConfigFile }> = [];
  let directory = path.dirname(file);
  for (let level = 0; level < MAX_EDITORCONFIG_DIRECTORIES; level++) {
    if (!isInside(directory, boundary)) break;
    const text = read(path.join(directory, '.editorconfig'));
    if (text !== undefined) {
      const config = parseEditorConfig(text);
      found.push({ directory, config });
      if (config.root) break;
    }
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  const properties: Properties = new Map();
  for (const { directory: where, config } of found.reverse()) {
    const relative = path.relative(where, file).split(path.sep).join('/');
    for (const section of config.sections) {
      if (!sectionMatches(section.glob, relative)) continue;
      for (const [key, value] of section.properties) properties.set(key, value);
    }
  }
  return optionsOf(properties);
}

function isInside(directory: string, boundary: string): boolean {
  const relative = path.relative(boundary, directory);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** indent_size = tab means tab_width; tab_width defaults to indent_size (the specification's rules). */
function optionsOf(properties: Properties): Partial<FormatOptions> {
  const options: Partial<FormatOptions> = {};
  const style = properties.get('indent_style');
  if (style === 'tab' || style === 'space') options.indentStyle = style;
  const tabWidth = positiveInteger(properties.get('tab_width'));
  const indentSize = properties.get('indent_size') === 'tab' ? tabWidth : positiveInteger(properties.get('indent_size'));
  if (indentSize !== undefined) options.indentSize = indentSize;
  if (tabWidth !== undefined) options.tabWidth = tabWidth;
  else if (indentSize !== undefined) options.tabWidth = indentSize;
  return options;
}

/** Options from the first source that gives each one: e.g. flags, then .editorconfig, then the defaults. */
export function mergeFormatOptions(first: Partial<FormatOptions>, ...rest: Array<Partial<FormatOptions>>): FormatOptions {
  const merged: Partial<FormatOptions> = { ...first };
  for (const source of rest) {
    merged.indentStyle ??= source.indentStyle;
    merged.indentSize ??= source.indentSize;
    merged.tabWidth ??= source.tabWidth;
  }
  return { ...DEFAULT_FORMAT_OPTIONS, ...definedOnly(merged) };
}

function definedOnly(options: Partial<FormatOptions>): Partial<FormatOptions> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

// Parameter words after a directive's leading arguments, from nginx.org's reference (model/nginx-docs.ts):
// `listen 80 |` → default_server ssl http2 …, upstream `server 10.0.0.1 |` → weight= max_fails= backup …,
// `keepalive 16 |` → local (from 1.29.7), `worker_processes |` → auto. Each is offered only in the releases the
// documentation says have it, once per statement, and only while the directive can take another argument.
//
//   parameterCandidates(entry, slot, offset, version)   the words for the argument being typed
import { compareVersions, type NginxVersion } from '../analysis/versions.js';
import { argumentCountValid, type DirectiveEntry } from '../model/directive-table.js';
import { directiveDocs, type DirectiveDocs } from '../model/nginx-docs.js';
import type { CompletionCandidate } from './completion.js';
import type { Slot } from './completion-cursor.js';

/** The syntax line's words after the name, split at white space outside `[ ]`: `address[:port]`, `[ssl]`, `|`. */
function syntaxTokens(line: string, name: string): string[] {
  const body = line.slice(name.length).replace(/(?:;| \{ \.\.\. \})$/, '');
  const tokens: string[] = [];
  let depth = 0;
  let word = '';
  for (const ch of body) {
    if (ch === '[') depth++;
    else if (ch === ']') depth = Math.max(0, depth - 1);
    if (ch === ' ' && depth === 0) {
      if (word) tokens.push(word);
      word = '';
    } else {
      word += ch;
    }
  }
  if (word) tokens.push(word);
  return tokens;
}

/** The required positions of a syntax line before its first optional part, each the words it may be. */
function requiredPositions(line: string, name: string): string[][] {
  const positions: string[][] = [];
  let joining = false;
  for (const token of syntaxTokens(line, name)) {
    if (token.startsWith('[') || token === '...') break;
    if (token === '|') {
      joining = true;
      continue;
    }
    if (joining && positions.length > 0) positions.at(-1)!.push(token);
    else positions.push([token]);
    joining = false;
  }
  return positions;
}

/** The parameter words the documentation allows as argument `index` (0-based) in one of its syntax lines. */
function allowedAt(docs: DirectiveDocs, name: string, index: number): Set<string> {
  const words = Object.keys(docs.params ?? {});
  const allowed = new Set<string>();
  for (const line of docs.syntax) {
    const required = requiredPositions(line, name);
    if (index < required.length) {
      for (const word of required[index]!) if (words.includes(word)) allowed.add(word);
    } else {
      // Past the required ones: every parameter but those that are one of the required positions' alternatives.
      const positional = new Set(required.flat());
      for (const word of words) if (!positional.has(word)) allowed.add(word);
    }
  }
  return allowed;
}

function inVersion(since: string, version: NginxVersion): boolean {
  if (since === '') return true;
  const [major = 0, minor = 0, patch = 0] = since.split('.').map(Number);
  return compareVersions(version, [major, minor, patch]) >= 0;
}

/** `weight=2` and `weight=` are the same parameter. */
function keyOf(word: string): string {
  const equals = word.indexOf('=');
  return equals === -1 ? word : word.slice(0, equals + 1);
}

export function parameterCandidates(
  entry: DirectiveEntry,
  slot: Slot & { kind: 'argument' },
  offset: number,
  version: NginxVersion,
): CompletionCandidate[] {
  const docs = directiveDocs(entry);
  if (!docs?.params || !argumentCountValid(entry, slot.index + 1)) return [];
  const given = new Set(slot.previous.map(keyOf));
  const values = new Set(entry.values ?? []);
  const candidates: CompletionCandidate[] = [];
  for (const word of allowedAt(docs, entry.name, slot.index)) {
    const since = docs.params[word]!;
    if (given.has(word) || values.has(word) || !inVersion(since, version)) continue;
    candidates.push({
      label: word,
      kind: 'value',
      detail: `${entry.name} parameter${since ? ` (nginx ${since})` : ''}`,
      span: { startOffset: slot.start, endOffset: offset },
      text: word,
      sortText: `1${word}`,
      reference: { directive: entry.name, module: entry.module },
    });
  }
  return candidates;
}

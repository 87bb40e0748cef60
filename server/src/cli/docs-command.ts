// `nginx-keepalive rules` (every rule, one line each) and `nginx-keepalive rule <id>` (its documentation page, as
// markdown: readable in a terminal, and `rule x > x.md` keeps it).
import type { RuleMeta } from '../analysis/rule-api.js';
import { rules as registeredRules } from '../rules/registry.js';
import { docsUrl } from '../engine/docs-url.js';
import { EXIT_CLEAN, EXIT_FAILURE, type ExitCode } from './exit-codes.js';
import { ruleDoc } from '../engine/rule-docs.js';

export interface DocsIo {
  stdout(text: string): void;
  stderrLine(message: string): void;
}

const HEADER = { id: 'rule', defaultSeverity: 'severity', fixable: 'fixable', nginxVersions: 'nginx', description: 'reports' };

/** Aligned columns: id, default severity, fixable, nginx versions, description (the README's rule table). */
export function formatRuleList(metas: readonly RuleMeta[]): string {
  const rows = [HEADER, ...metas.map((meta) => ({ ...meta, fixable: meta.fixable ? 'yes' : 'no', nginxVersions: versions(meta) }))];
  const width = (key: 'id' | 'defaultSeverity' | 'fixable' | 'nginxVersions') => rows.reduce((max, row) => Math.max(max, row[key].length), 0);
  const widths = { id: width('id'), defaultSeverity: width('defaultSeverity'), fixable: width('fixable'), nginxVersions: width('nginxVersions') };
  const lines = rows.map((row) =>
    [
      row.id.padEnd(widths.id),
      row.defaultSeverity.padEnd(widths.defaultSeverity),
      row.fixable.padEnd(widths.fixable),
      row.nginxVersions.padEnd(widths.nginxVersions),
      row.description,
    ].join('  '),
  );
  return `${lines.join('\n')}\n\n"nginx-keepalive rule <id>" prints a rule's documentation.\n`;
}

function versions(meta: RuleMeta): string {
  return meta.nginxVersions.trim() === '*' ? 'all' : meta.nginxVersions.trim();
}

export function runRulesCommand(io: DocsIo): ExitCode {
  io.stdout(formatRuleList(registeredRules.map((rule) => rule.meta)));
  return EXIT_CLEAN;
}

export function runRuleCommand(id: string, io: DocsIo): ExitCode {
  const known = registeredRules.map((rule) => rule.meta.id);
  if (!known.includes(id)) {
    const close = closeIds(id, known);
    const suggestion = close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : '';
    io.stderrLine(`unknown rule "${id}"${suggestion}; "nginx-keepalive rules" lists them all`);
    return EXIT_FAILURE;
  }
  const page = ruleDoc(id);
  // Every registered rule has a page (test/docs checks it); a build without them still points somewhere useful.
  io.stdout(page ?? `${id}: no documentation page in this build; see ${docsUrl(id)}\n`);
  return EXIT_CLEAN;
}

/** Up to three ids close to `typed`: containing it (or contained in it), or a few edits away; closest first. */
export function closeIds(typed: string, ids: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  const scored = ids
    .map((id) => {
      const contains = wanted.length >= 3 && (id.includes(wanted) || wanted.includes(id));
      return { id, distance: contains ? 0 : editDistance(wanted, id) };
    })
    .filter(({ id, distance }) => distance <= Math.max(2, Math.floor(id.length / 3)));
  scored.sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, 3).map(({ id }) => id);
}

/** Levenshtein distance; the typed id is bounded by the command line, and the ids are short. */
function editDistance(a: string, b: string): number {
  // What the user typed could be long (a pasted line): past this it is no near miss of any id.
  if (Math.abs(a.length - b.length) > 10) return Number.MAX_SAFE_INTEGER;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

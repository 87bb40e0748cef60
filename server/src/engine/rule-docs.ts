// The rules' documentation pages (docs/rules/<id>.md) for `nginx-keepalive rule <id>` and the editor's "Show rule
// documentation" (the language server's nginxKeepalive/ruleDocumentation request). The builds embed their text
// (esbuild `define`, scripts/rule-docs.mjs): dist/cli.js is installed by npm without docs/, and the single
// executable reads nothing beside itself, so a page read from disk at run time would be missing exactly where the
// command is needed. Run from the source tree (tests), the pages are read from the repository instead.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRule } from '../rules/registry.js';

/** Replaced by the builds with `{ "<id>": "<page text>", ... }`; not defined when running from source. */
declare const __NK_RULE_DOCS__: Readonly<Record<string, string>> | undefined;

/** The page of a registered rule, or undefined for any other id (never a path built from what the user typed). */
export function ruleDoc(id: string): string | undefined {
  if (!findRule(id)) return undefined;
  if (typeof __NK_RULE_DOCS__ !== 'undefined') return Object.hasOwn(__NK_RULE_DOCS__, id) ? __NK_RULE_DOCS__[id] : undefined;
  // server/src/engine/ -> the repository root.
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/rules', `${id}.md`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

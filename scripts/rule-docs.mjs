// The esbuild `define` that embeds docs/rules/*.md into a bundle (server/src/engine/rule-docs.ts reads it), shared by
// esbuild.mjs (dist/cli.js, the npm package and the VSIX) and scripts/build-binary.mjs (the single executable):
// neither ships docs/ beside the code, and `nginx-keepalive rule <id>` must print the page wherever it runs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function ruleDocsDefine(root) {
  const directory = path.join(root, 'docs/rules');
  const pages = {};
  for (const name of readdirSync(directory).sort()) {
    if (name.endsWith('.md')) pages[name.slice(0, -'.md'.length)] = readFileSync(path.join(directory, name), 'utf8');
  }
  return { __NK_RULE_DOCS__: JSON.stringify(pages) };
}

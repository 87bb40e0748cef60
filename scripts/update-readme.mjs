// Rewrites the README's rule table (between `<!-- rules:start -->` and `<!-- rules:end -->`) from the rule registry's
// metadata: `npm run docs`. With --check it changes nothing and exits 1 when the README is out of date (for CI).
// The registry is TypeScript, so it is bundled with esbuild's API into a temporary module first.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readmePath = path.join(root, 'README.md');
const check = process.argv.includes('--check');

async function loadDocsModule() {
  const result = await build({
    stdin: {
      contents: [
        "export { rules } from './server/src/rules/registry.js';",
        "export { renderRuleTable, replaceRulesSection } from './server/src/rules/docs-table.js';",
      ].join('\n'),
      resolveDir: root,
      sourcefile: 'update-readme-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    // Bundled CommonJS dependencies call require(); an ES module has none unless it is made.
    banner: { js: "import { createRequire as __nkCreateRequire } from 'node:module'; const require = __nkCreateRequire(import.meta.url);" },
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-update-readme-'));
  try {
    const file = path.join(dir, 'docs.mjs');
    writeFileSync(file, result.outputFiles[0].text);
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { rules, renderRuleTable, replaceRulesSection } = await loadDocsModule();
const readme = readFileSync(readmePath, 'utf8');
const updated = replaceRulesSection(readme, renderRuleTable(rules));

if (updated === readme) {
  console.log(`README.md rule table is up to date (${rules.length} rules)`);
} else if (check) {
  console.error('README.md rule table is out of date: run `npm run docs`');
  process.exit(1);
} else {
  writeFileSync(readmePath, updated);
  console.log(`README.md rule table updated (${rules.length} rules)`);
}

#!/usr/bin/env node
// Regenerates every file derived from the rule registry, so a rule change needs one command:
//   - README.md's rule table (between `<!-- rules:start -->` and `<!-- rules:end -->`),
//   - schemas/nginx-keepalive.schema.json (the .nginx-keepalive.json schema),
//   - package.json's contributes.configuration (the extension's settings).
//   node scripts/generate.mjs             write what is stale                       (npm run generate)
//   node scripts/generate.mjs --check     write nothing; exit 1 when anything is stale (npm run generate -- --check,
//                                         run by test/generated.test.ts, so by npm test)
//   --root <dir>                          read and write these files under another directory (tests use a copy)
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { importTs, root as repoRoot } from './bundle-ts.mjs';

function parseArgs(argv) {
  const args = { check: false, root: repoRoot };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--check') args.check = true;
    else if (argv[i] === '--root' && argv[i + 1]) args.root = path.resolve(argv[++i]);
    else throw new Error(`unknown argument: ${argv[i]} (expected --check or --root <dir>)`);
  }
  return args;
}

/** The file's text, or undefined when it does not exist (a missing generated file is stale, not an error). */
function readIfPresent(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

const args = parseArgs(process.argv.slice(2));
const { modules, cleanup } = await importTs(
  'generate',
  [
    "export { rules } from './server/src/rules/registry.ts';",
    "export { renderRuleTable, replaceRulesSection } from './server/src/engine/docs-table.ts';",
    "export { renderConfigSchema } from './server/src/engine/config-schema.ts';",
    "export { withConfigurationContribution } from './server/src/configuration-manifest.ts';",
  ].join('\n'),
);
cleanup();
const { rules, renderRuleTable, replaceRulesSection, renderConfigSchema, withConfigurationContribution } = modules;

// Each target: its path under the root and its expected text given the current one. README.md and package.json are
// partly hand-written, so those are rewritten in place; the schema is wholly generated.
const targets = [
  { file: 'README.md', what: 'rule table', expected: (current) => replaceRulesSection(current, renderRuleTable(rules)) },
  { file: 'schemas/nginx-keepalive.schema.json', what: 'schema', expected: () => renderConfigSchema(rules) },
  { file: 'package.json', what: 'contributes.configuration', expected: (current) => withConfigurationContribution(current, rules) },
];

const stale = [];
for (const target of targets) {
  const file = path.join(args.root, target.file);
  const current = readIfPresent(file);
  if (current === undefined && target.file !== 'schemas/nginx-keepalive.schema.json') {
    throw new Error(`${file}: missing (only its generated part can be rebuilt)`);
  }
  const expected = target.expected(current);
  if (current === expected) continue;
  stale.push(`${target.file} (${target.what})`);
  if (!args.check) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, expected);
  }
}

if (stale.length === 0) {
  console.log(`generated files are up to date (${rules.length} rules)`);
} else if (args.check) {
  console.error(`out of date with the rule registry: ${stale.join(', ')}; run: npm run generate`);
  process.exit(1);
} else {
  console.log(`wrote ${stale.join(', ')} (${rules.length} rules)`);
}

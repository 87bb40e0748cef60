#!/usr/bin/env node
// Regenerates package.json's contributes.configuration (the extension's settings) from the rule registry.
//   node scripts/build-manifest.mjs           write package.json          (npm run manifest)
//   node scripts/build-manifest.mjs --check   exit 1 when it is stale     (npm run manifest:check)
//   --package <file>                          another package.json (tests use a copy)
// The TypeScript sources are bundled with esbuild into a temp dir and imported, like scripts/build-schema.mjs.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const args = { check: false, packageJson: path.join(root, 'package.json') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--check') args.check = true;
    else if (argv[i] === '--package' && argv[i + 1]) args.packageJson = path.resolve(argv[++i]);
    else throw new Error(`unknown argument: ${argv[i]} (expected --check or --package <file>)`);
  }
  return args;
}

async function loadGenerator() {
  const entry = [
    "export { withConfigurationContribution } from './client/src/configuration-manifest.ts';",
    "export { rules } from './server/src/rules/registry.ts';",
  ].join('\n');
  const dir = mkdtempSync(path.join(tmpdir(), 'nk-manifest-'));
  try {
    const outfile = path.join(dir, 'manifest.mjs');
    await build({
      stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'manifest-entry.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = parseArgs(process.argv.slice(2));
const { withConfigurationContribution, rules } = await loadGenerator();
const current = readFileSync(args.packageJson, 'utf8');
const expected = withConfigurationContribution(current, rules);
const shown = path.relative(process.cwd(), args.packageJson) || args.packageJson;
if (args.check) {
  if (current !== expected) {
    console.error(`${shown}: contributes.configuration is out of date with the rule registry; run: npm run manifest`);
    process.exit(1);
  }
  console.log(`${shown}: contributes.configuration is up to date (${rules.length} rules)`);
} else if (current === expected) {
  console.log(`${shown}: already up to date (${rules.length} rules)`);
} else {
  writeFileSync(args.packageJson, expected);
  console.log(`wrote contributes.configuration into ${shown} (${rules.length} rules)`);
}

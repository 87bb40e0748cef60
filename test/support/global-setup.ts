// Builds dist/ once before any test file runs, so end-to-end tests that spawn dist/cli.js never race a rebuild.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export default function buildOnce(): void {
  const repoRoot = path.resolve(import.meta.dirname, '../..');
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
}

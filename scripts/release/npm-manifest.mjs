// The npm package's manifest, derived from the repository's package.json. The repository has one manifest: the
// extension's (VS Code reads contributes, activationEvents, main, browser, publisher, engines.vscode from it) and the
// development's (scripts, devDependencies). The npm package is the CLI, so its manifest keeps only what a CLI
// package needs, and it is not private: the repository's "private": true only stops `npm publish` from a checkout,
// which would publish the extension's manifest with the repository's README.
/** The fields the npm package keeps, in this order. */
const KEPT = ['name', 'version', 'description', 'keywords', 'homepage', 'bugs', 'license', 'repository', 'type', 'bin', 'files'];

/**
 * No "dependencies": dist/cli.js, dist/cli-worker.js and dist/server.js are esbuild bundles that import only node's
 * built-in modules (test/release/npm-package.test.ts checks), so an install needs no registry.
 */
export function npmManifest(repositoryManifest) {
  const manifest = {};
  for (const key of KEPT) if (repositoryManifest[key] !== undefined) manifest[key] = repositoryManifest[key];
  manifest.engines = { node: repositoryManifest.engines.node };
  // npm packs README.md, LICENSE and package.json whatever "files" says; CHANGELOG.md it does not.
  manifest.files = [...repositoryManifest.files, 'CHANGELOG.md'];
  return manifest;
}

// Types of npm-manifest.mjs, for the tests.
export function npmManifest(repositoryManifest: Record<string, unknown>): Record<string, unknown>;

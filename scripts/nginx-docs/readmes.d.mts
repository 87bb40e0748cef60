// Types for the tests that import readmes.mjs.
export function readReadme(readme: string, names: string[]): Record<string, { syntax: string[]; default?: string[]; context: string[]; text: string }>;

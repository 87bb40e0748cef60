// Types for the tests that import value-syntax.mjs.
export function walk<T extends object>(releases: { version: string; map: Record<string, T> }[]): Record<string, T & { since?: string; changes?: { version: string; was: Partial<T> }[] }>;

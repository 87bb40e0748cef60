// Types for the tests that import git-readmes.mjs.
type Entries = Record<string, { syntax: string[]; default?: string[]; context: string[]; text: string }>;
export function readNchan(readme: string): Entries;
export function readVts(readme: string): Entries;
export function readListed(readme: string): Entries;
export function nchanAliases(commands: string): Record<string, string>;

// Types of changelog.mjs, for the tests.
export interface ChangelogSection { name: string; date: string | undefined; heading: number; start: number; end: number }
export function sections(text: string): { lines: string[]; sections: ChangelogSection[] };
export function latestRelease(text: string): ChangelogSection | undefined;
export function releaseNotes(text: string, version: string): string;
export function releaseUnreleased(text: string, version: string, date: string, repositoryUrl: string): string;

// Types of versions.mjs, for the tests.
export interface VersionPlace { file: string; line: number; what: string; version: string | undefined }
export const SEMVER: RegExp;
export function versionPlaces(root: string): VersionPlace[];
export function writeVersion(root: string, version: string): string[];

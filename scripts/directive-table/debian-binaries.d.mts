// Types for the tests that import debian-binaries.mjs (the generator itself is plain node).
import type { SnapshotDirective } from './snapshot.mjs';
export const BINARY_MODULES: { package: string; version: string; objects: string[]; home: string; licence: string; supplement?: true }[];
export function debFileName(party: { package: string; version: string }): string;
export function objectTree(file: string): { directives: SnapshotDirective[]; variables: []; modules: Record<string, { type: string; file: string }> };

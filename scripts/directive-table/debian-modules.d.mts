// Types for the tests that import debian-modules.mjs (the scripts themselves are plain node).
export const DEBIAN_MODULE_PACKAGES: string[];
export const MODULE_LIBRARIES: string[];
export const DEFAULT_CACHE: string;
export function ensureDebianModules(cache?: string): { debsDir: string; modulesDir: string; libraryDir: string; perlDir: string };

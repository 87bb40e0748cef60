// Types for the tests that import sources.mjs.
import type { Facts } from './snapshot.mjs';
export function buildFacts(version: string): Facts;

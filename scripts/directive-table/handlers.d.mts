// Types for the tests that import handlers.mjs.
import type { Facts } from './snapshot.mjs';
export interface HandlerSyntax { value: string; repeat: 'once' | 'yes' | 'mostly' | 'unknown' }
export interface ParameterWords { words: string[]; prefixes: string[] }
export const PARAMETER_HANDLERS: string[];
export function readHandlers(files: Record<string, string>, facts: Facts): {
  directives: Record<string, HandlerSyntax>;
  parameters: Record<string, ParameterWords>;
};

// Types for the tests that import snapshot.mjs (the generator itself is plain node).
export interface SnapshotDirective {
  name: string;
  module: string;
  contexts: string[];
  args: string;
  block?: true;
  body?: 'custom';
  values?: string[];
  multiple?: true;
  default?: string;
  deprecated?: string;
  when?: string;
}
export interface SnapshotVariable { name: string; module: string; protocol: 'http' | 'stream'; prefix?: true; when?: string }
export interface Facts { defined: Record<string, number>; undefinedNames: Set<string>; markedNames: string[] }
export interface Tree {
  directives: SnapshotDirective[];
  variables: SnapshotVariable[];
  modules: Record<string, { type: string; file: string }>;
  stats: { commands: number; withDefault: number };
  defines: Record<string, string>;
  valueTables: Record<string, unknown>;
}
export const ALL_CONTEXTS: string[];
export function evaluateBits(expression: string, defines: Record<string, string>): number | undefined;
export function argumentRule(bits: number): string;
export function contextsOf(bits: number, moduleType: string): string[];
export function readTree(files: Record<string, string>, facts: Facts, inherited?: { defines: Record<string, string>; valueTables: Record<string, unknown> }): Tree;

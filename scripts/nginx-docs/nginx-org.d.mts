// Types for the tests that import nginx-org.mjs.
export interface PageEntry {
  syntax: string[];
  default?: string[];
  context: string[];
  since?: string;
  text: string;
  params?: Record<string, string>;
}
export function readPage(xml: string): Record<string, PageEntry>;

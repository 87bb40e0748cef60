// How much of the text the parser reads, counted through an input callback that hands it one character at a time:
// tree-sitter asks again for every character it reads past its current chunk, so the count grows with the characters
// lexed, rescans included. Each shape below, repeated n times, must cost reads linear in n: twice the repetitions,
// about twice the reads. A scanner that reads to the end of the file once per occurrence (the unclosed Go comment of
// issue 26) costs reads quadratic in n: four times as many.
import { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadNginxParser } from '../../server/src/parser/loader.js';

let parser: Parser;
beforeAll(async () => {
  const { language } = await loadNginxParser();
  parser = new Parser();
  parser.setLanguage(language);
});

function charactersRead(text: string): number {
  let reads = 0;
  const tree = parser.parse((index: number) => {
    reads++;
    return text.slice(index, index + 1);
  });
  tree?.delete();
  return reads;
}

const SHAPES: Record<string, string> = {
  'an unclosed Go comment per line': '{{/* note\n',
  'unclosed Go comments with trim markers': '{{- /* x ',
  'an unclosed Go comment in an argument': 'listen {{/* 80;\n',
  'a comment closed but not its action': '{{/* x */ \n',
  'an unclosed Jinja comment': '{# x\n',
  'an unclosed Go action': '{{ if .X\n',
  'an unclosed Jinja tag': '{% if x\n',
};

describe('the scanner reads each character a bounded number of times', () => {
  for (const [name, unit] of Object.entries(SHAPES)) {
    it(name, () => {
      const reads = (n: number) => charactersRead(`server {\n${unit.repeat(n)}}\n`);
      expect(reads(600) / reads(300)).toBeLessThan(2.5);
    });
  }
});

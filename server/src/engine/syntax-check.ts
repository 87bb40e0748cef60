// Whether a text parses cleanly as nginx configuration: the guard every fix result passes before anyone writes it.
import { buildConfigFile } from '../model/build.js';
import { loadNginxParser } from '../parser/loader.js';

/** True when `text` has no syntax or structure problems (what the `syntax` rule would report). */
export type SyntaxChecker = (path: string, text: string) => boolean;

export async function loadSyntaxChecker(): Promise<SyntaxChecker> {
  const parser = await loadNginxParser();
  return (path, text) => {
    let tree;
    try {
      tree = parser.parse(text);
    } catch {
      // A parse abandoned at its time limit proves nothing about the text: treat it as not clean.
      return false;
    }
    try {
      return buildConfigFile(path, text, tree).syntaxProblems.length === 0;
    } finally {
      tree.delete();
    }
  };
}

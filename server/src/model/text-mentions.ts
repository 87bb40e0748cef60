// Whether a model's text holds a word: `include` (a file without one includes nothing) and the suppression comments'
// marker. Each was a search of the whole text at every keystroke; a model the incremental model derived from the
// previous one answers from that one's answer and the edited block's text alone.
import { modelEditOf } from './incremental-model.js';
import type { ConfigFile } from './types.js';

/** The words asked about: none holds a blank, `;`, `{` or `}`, which derivedMention relies on. */
export type MentionedWord = 'include' | 'nginx-keepalive-ignore';

const answers = new WeakMap<ConfigFile, Map<MentionedWord, boolean>>();

/** `file.text.includes(word)`, remembered per model (a model's text never changes; an open document's does). */
export function mentions(file: ConfigFile, word: MentionedWord): boolean {
  let known = answers.get(file);
  const answer = known?.get(word);
  if (answer !== undefined) return answer;
  const found = derivedMention(file, word) ?? file.text.includes(word);
  if (!known) answers.set(file, (known = new Map()));
  known.set(word, found);
  return found;
}

/**
 * For a model an edit inside one block derived from a text without `word`: whether the new block holds it. The texts
 * differ only between the block's first character, which follows a separator, and its closing `}`, so an occurrence
 * of a word without either lies wholly inside that stretch or wholly outside it, where the old text had none.
 */
function derivedMention(file: ConfigFile, word: MentionedWord): boolean | undefined {
  const edit = modelEditOf(file);
  if (!edit || answers.get(edit.previous)?.get(word) !== false) return undefined;
  const { startOffset, endOffset } = edit.edited.span;
  return file.text.slice(startOffset, endOffset).includes(word);
}

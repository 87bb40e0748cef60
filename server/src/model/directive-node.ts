// A model's statement. Its file is not stored in each statement but in one holder the file's statements share: an edit
// of a large file (incremental-model.ts) gives the new model's statements the new file by changing the holder, not
// tens of thousands of statements, most of which it no longer visits at all.
import type { Argument, ConfigFile, Directive, TemplateGuard } from './types.js';
import type { Span } from '../util/types.js';

/** The file a model's statements belong to, one per model build, shared by every statement it reads. */
export class FileHome {
  constructor(public file: ConfigFile) {}
}

export class DirectiveNode implements Directive {
  // Private, so a spread or a deep comparison of a statement sees the same properties as before (no holder).
  #home: FileHome;

  constructor(
    public name: string,
    public nameSpan: Span,
    public args: Argument[],
    public span: Span,
    public blockSpan: Span | undefined,
    public children: Directive[],
    public condition: string | undefined,
    public parent: Directive | undefined,
    home: FileHome,
    public guards: TemplateGuard[],
    public indent: string,
  ) {
    this.#home = home;
  }

  get file(): ConfigFile {
    return this.#home.file;
  }

  /** The holder `directive` reads its file from (undefined for a statement made elsewhere, as tests do). */
  static homeOf(directive: Directive): FileHome | undefined {
    return directive instanceof DirectiveNode ? directive.#home : undefined;
  }

  /** Gives `directive` and everything in its block `home`: a block an edit replaced keeps the file it was read from. */
  static rehome(directive: Directive, home: FileHome): void {
    // A stack, not recursion: a block of a tree-walked model may nest deeper than the call stack goes.
    const pending = [directive];
    for (let next = pending.pop(); next; next = pending.pop()) {
      if (next instanceof DirectiveNode) next.#home = home;
      for (const child of next.children) pending.push(child);
    }
  }
}

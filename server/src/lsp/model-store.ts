// The models analyze() reuses instead of parsing: open documents' (re-parsed incrementally) and, for closed files,
// the last model built for each path, kept while its text is unchanged and it is on the same side of the file's
// maxFileSize (a "too large" model is not kept once the limit is raised, nor a parsed one once it is lowered). A
// keystroke in one file of a large include graph then parses that file alone.
import { unparsedConfigFile } from '../model/build.js';
import { parseFile, type ParserLike } from '../model/file-loader.js';
import type { ConfigFile, ModelCache } from '../model/types.js';
import type { OpenDocuments } from './documents.js';
import { tooLargeReason } from './open-document.js';

/** Closed files remembered (at most this many, of at most this many characters together); oldest used go first. */
export const MAX_CACHED_CLOSED_MODELS = 2000;
export const MAX_CACHED_CLOSED_CHARACTERS = 64 * 1024 * 1024;

interface CachedModel {
  model: ConfigFile;
  /** Built as too large to analyze (an unparsed model saying so). */
  tooLarge: boolean;
}

export class ModelStore implements ModelCache {
  /** Insertion order is use order: a hit moves its entry to the end. */
  private readonly closed = new Map<string, CachedModel>();
  private cachedCharacters = 0;

  constructor(
    private readonly documents: OpenDocuments,
    private readonly parser: ParserLike,
    private readonly maxFileSize: (file: string) => number,
    private readonly capacity: number = MAX_CACHED_CLOSED_MODELS,
  ) {}

  get(filePath: string, text: string): ConfigFile {
    const open = this.documents.atPath(filePath);
    if (open && open.text === text) return open.currentModel(this.parser);
    const limit = this.maxFileSize(filePath);
    const tooLarge = text.length > limit;
    const cached = this.closed.get(filePath);
    if (cached && cached.model.text === text && cached.tooLarge === tooLarge) {
      this.closed.delete(filePath);
      this.closed.set(filePath, cached);
      return cached.model;
    }
    const model = tooLarge ? unparsedConfigFile(filePath, text, tooLargeReason(text.length, limit)) : parseFile(this.parser, filePath, text);
    this.remember(filePath, { model, tooLarge });
    return model;
  }

  forget(filePath: string): void {
    const cached = this.closed.get(filePath);
    if (!cached) return;
    this.closed.delete(filePath);
    this.cachedCharacters -= cached.model.text.length;
  }

  private remember(filePath: string, cached: CachedModel): void {
    this.forget(filePath);
    this.closed.set(filePath, cached);
    this.cachedCharacters += cached.model.text.length;
    while (this.closed.size > this.capacity || (this.cachedCharacters > MAX_CACHED_CLOSED_CHARACTERS && this.closed.size > 1)) {
      this.forget(this.closed.keys().next().value!);
    }
  }
}

// Parses each file once, whoever asks for it: documents handed to analyze() (whose text may be unsaved) win over
// the host's copy of the same path. "Once" per real file (file-identity.ts): a path reaching a file already loaded
// under another name (a sites-enabled link to sites-available, two includes of one file) gets that same model, under
// the name it was first loaded by, so its findings and fixes exist once.
import path from 'node:path';
import { resolvedPath } from '../util/paths.js';
import type { FileHost, SourceDocument } from '../util/types.js';
import type { ConfigFile, ModelCache } from './types.js';
import { ParserNotLoaded, type NginxParser } from '../parser/loader.js';
import { buildPlainConfigFile, buildTreeConfigFile, unparsedConfigFile } from './build.js';
import { FileIdentities } from './file-identity.js';

export type ParserLike = Pick<NginxParser, 'parse'>;

/** The model of `text`; a parse that fails (e.g. times out) gives an unparsed model instead of an exception. */
export function parseFile(parser: ParserLike, filePath: string, text: string): ConfigFile {
  // Most files are plain nginx, read without tree-sitter: the parse is the larger part of building a model.
  const plain = buildPlainConfigFile(filePath, text);
  if (plain) return plain;
  let tree;
  try {
    tree = parser.parse(text);
  } catch (error) {
    // The caller loads the parser and starts again (engine/analyze.ts).
    if (error instanceof ParserNotLoaded) throw error;
    // A parse abandoned at its time limit must not take the other files' findings with it.
    const reason = error instanceof Error ? error.message : String(error);
    return unparsedConfigFile(filePath, text, `the file could not be parsed: ${reason}`);
  }
  try {
    // The reader declined this text above, and would again: straight to the tree walk.
    return buildTreeConfigFile(filePath, text, tree);
  } finally {
    tree.delete();
  }
}

export class FileLoader {
  /** By absolute path; null records a file that could not be read. */
  private readonly cache = new Map<string, ConfigFile | null>();
  /** By real path: every file parsed. */
  private readonly byIdentity = new Map<string, ConfigFile>();
  /** By real path: the first document naming each file. */
  private readonly documents = new Map<string, SourceDocument>();
  private readonly identities: FileIdentities;
  /** Every parsed file, in the order first parsed. */
  readonly files: ConfigFile[] = [];

  constructor(
    private readonly host: FileHost,
    private readonly parser: ParserLike,
    docs: readonly SourceDocument[],
    private readonly models?: ModelCache,
  ) {
    this.identities = new FileIdentities(host.virtual === true);
    for (const doc of docs) {
      const identity = doc.realPath === undefined ? this.identities.of(doc.path) : this.identities.known(doc.path, doc.realPath);
      if (!this.documents.has(identity)) this.documents.set(identity, doc);
    }
  }

  /** The model of a document, under the path the caller gave it (or of the document naming the same file first). */
  document(doc: SourceDocument): ConfigFile {
    return this.load(doc.path)!;
  }

  /** The model of the file at `filePath`; undefined when it cannot be read. */
  load(filePath: string): ConfigFile | undefined {
    // Most callers pass the resolved path itself (a document's, an include's match): looked up as given first.
    let cached = this.cache.get(filePath);
    if (cached !== undefined) return cached ?? undefined;
    // Resolved once: path.resolve of an absolute path still reads it through, and each copy is hashed anew below.
    const key = resolvedPath(filePath);
    if (key !== filePath) cached = this.cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const identity = this.identities.ofAbsolute(key);
    const known = this.byIdentity.get(identity);
    if (known) {
      this.cache.set(key, known);
      return known;
    }
    const doc = this.documents.get(identity);
    const text = doc ? doc.text : this.host.readFile(key);
    const modelPath = doc ? doc.path : key;
    const file = text === undefined ? null : (this.models?.get(modelPath, text) ?? parseFile(this.parser, modelPath, text));
    this.cache.set(key, file);
    if (file) {
      this.byIdentity.set(identity, file);
      this.files.push(file);
    }
    return file ?? undefined;
  }
}

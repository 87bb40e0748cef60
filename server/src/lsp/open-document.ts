// One document the client has open: its text (kept in sync incrementally), and the tree-sitter tree of that text,
// edited along with every change so the next parse can reuse everything the change did not touch.
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver/node.js';
import type { Tree } from 'web-tree-sitter';
import { buildPlainConfigFile, buildTreeConfigFile, unparsedConfigFile } from '../model/build.js';
import { composeChange, updatedModel, type ChangedStretch } from '../model/incremental-model.js';
import type { ParserLike } from '../model/file-loader.js';
import { ParserNotLoaded, type NginxParser } from '../parser/loader.js';
import type { ConfigFile } from '../model/types.js';
import { clampRange, treeEditOf } from './text-edits.js';

/** Counts the trees alive in this process, so `nginxKeepalive/stats` can show they are all freed after a close. */
let liveTrees = 0;
export const liveTreeCount = (): number => liveTrees;

export function tooLargeReason(length: number, maxLength: number): string {
  return `the file is too large to analyze (${length} characters; the limit is ${maxLength}, setting nginxKeepalive.maxFileSize)`;
}

/**
 * Texts at least this long are parsed in slices when they are parsed whole (prepareModel): a shorter one parses in a
 * few milliseconds. Only long texts can hold a parse that keeps the server from answering other documents.
 */
export const SLICED_PARSE_MIN_LENGTH = 32 * 1024;

/**
 * What changed in a document's text since diagnostics were last made of it (OpenDocument.changesSinceDiagnostics):
 * nothing, the stretch every change since lies in, or not known (the whole text was replaced, or none were made yet).
 */
export type ChangesSince = ChangedStretch | 'unchanged' | 'unknown';

export class OpenDocument {
  private document: TextDocument;
  /**
   * The tree of the text before the pending changes, already edited to match the current text; or none. Only a
   * file the text reader declines (a template, a syntax error, a Lua block) keeps one: a plain file's model is read
   * from its text, and a tree of a large file costs more memory than its model.
   */
  private tree: Tree | undefined;
  /** The model of the current text; undefined after a change until someone asks for it. */
  private model: ConfigFile | undefined;
  /** Whether `model` was built as too large to analyze: a limit changed since then makes it stale. */
  private modelTooLarge = false;
  /** The last model built, and what changed in the text since: the next model re-reads only the edited block. */
  private previousModel: ConfigFile | undefined;
  private changedStretch: ChangedStretch | undefined;
  private sinceDiagnostics: ChangesSince = 'unknown';
  private disposed = false;
  /** The parse in slices under way (prepareModel), shared by everyone who waits for it. */
  private preparing: Promise<void> | undefined;
  /** How models were built: by re-reading one edited block, or the whole text (stats and tests read them). */
  readonly modelBuilds = { incremental: 0, full: 0 };
  /** False once a '\r' may be in the text: then tree-sitter rows must be counted rather than read off LSP lines. */
  private lspRowsMatch: boolean;

  constructor(
    readonly uri: string,
    readonly path: string,
    version: number,
    text: string,
    private readonly maxLength: () => number,
  ) {
    this.document = TextDocument.create(uri, 'nginx', version, text);
    this.lspRowsMatch = !text.includes('\r');
  }

  get version(): number {
    return this.document.version;
  }

  get text(): string {
    return this.document.getText();
  }

  get textDocument(): TextDocument {
    return this.document;
  }

  get hasTree(): boolean {
    return this.tree !== undefined;
  }

  get isTooLarge(): boolean {
    return this.text.length > this.maxLength();
  }

  /** Applies the client's changes in order; each incremental one is also applied to the tree. */
  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if ('range' in change) {
        const range = clampRange(this.document, change.range);
        if (change.text.includes('\r')) this.lspRowsMatch = false;
        this.tree?.edit(treeEditOf(this.document, range, change.text, this.lspRowsMatch));
        const start = this.document.offsetAt(range.start);
        const end = this.document.offsetAt(range.end);
        this.noteChange(start, end, change.text.length, change.text.includes('\n') || this.text.slice(start, end).includes('\n'));
        TextDocument.update(this.document, [{ range, text: change.text }], version);
      } else {
        this.dropTree();
        this.previousModel = undefined;
        this.model = undefined;
        this.changedStretch = undefined;
        this.sinceDiagnostics = 'unknown';
        this.lspRowsMatch = !change.text.includes('\r');
        TextDocument.update(this.document, [{ text: change.text }], version);
      }
    }
    // A version bump without changes still counts: the client says this is the text of `version`.
    if (changes.length === 0) TextDocument.update(this.document, [], version);
    if (this.model) this.previousModel = this.model;
    this.model = undefined;
    if (this.isTooLarge) this.dropTree();
  }

  /** The model of the current text, re-parsing incrementally when the text changed since the last call. */
  currentModel(parser: ParserLike): ConfigFile {
    const tooLarge = this.isTooLarge;
    // nginxKeepalive.maxFileSize moved across this text's length: the model is of the other kind, built afresh.
    if (this.model && this.modelTooLarge !== tooLarge) this.model = undefined;
    if (!this.model) {
      this.model = this.buildModel(parser);
      this.modelTooLarge = tooLarge;
    }
    return this.model;
  }

  /**
   * True when the next model needs a whole parse of a long text, with no tree to re-parse from and no previous model
   * to update: prepareModel can then parse it in slices, letting requests about other documents through meanwhile.
   */
  get needsWholeParse(): boolean {
    return this.model === undefined && this.tree === undefined && this.previousModel === undefined && !this.isTooLarge && this.text.length >= SLICED_PARSE_MIN_LENGTH;
  }

  /**
   * Builds the model needsWholeParse speaks of, parsing in slices (parser.parseInSlices); does nothing otherwise.
   * When the text changes during the parse, the tree is thrown away: the next model is built from the new text.
   */
  prepareModel(parser: Pick<NginxParser, 'parseInSlices'>): Promise<void> {
    if (!this.needsWholeParse) return this.preparing ?? Promise.resolve();
    this.preparing ??= this.parseWhole(parser).finally(() => (this.preparing = undefined));
    return this.preparing;
  }

  private async parseWhole(parser: Pick<NginxParser, 'parseInSlices'>): Promise<void> {
    const { version, text } = this;
    const plain = buildPlainConfigFile(this.path, text);
    if (plain) {
      this.modelBuilds.full++;
      this.model = plain;
      return;
    }
    let tree: Tree;
    try {
      tree = await parser.parseInSlices(text);
    } catch (error) {
      if (this.version !== version || this.model !== undefined) return;
      this.modelBuilds.full++;
      const reason = error instanceof Error ? error.message : String(error);
      this.model = unparsedConfigFile(this.path, text, `the file could not be parsed: ${reason}`);
      return;
    }
    // Changed meanwhile (or disposed, or a model built another way): this tree is of a text that is gone.
    if (this.version !== version || this.model !== undefined || this.tree !== undefined || this.disposed) {
      tree.delete();
      return;
    }
    this.modelBuilds.full++;
    this.tree = tree;
    liveTrees++;
    this.model = buildTreeConfigFile(this.path, text, tree);
  }

  dispose(): void {
    this.disposed = true;
    this.dropTree();
    this.model = undefined;
    this.previousModel = undefined;
  }

  /**
   * What changed since the last call (lsp/diagnostic-reuse.ts, once per set of diagnostics made): the places of
   * diagnostics outside the stretch move with it, and need not be looked up in the text again.
   */
  changesSinceDiagnostics(): ChangesSince {
    const since = this.sinceDiagnostics;
    this.sinceDiagnostics = 'unchanged';
    return since;
  }

  private noteChange(start: number, end: number, insertedLength: number, breaksLines: boolean): void {
    if (this.sinceDiagnostics !== 'unknown') {
      const stretch = this.sinceDiagnostics === 'unchanged' ? undefined : this.sinceDiagnostics;
      this.sinceDiagnostics = composeChange(stretch, start, end, insertedLength, breaksLines);
    }
    if (this.previousModel || this.model) this.changedStretch = composeChange(this.changedStretch, start, end, insertedLength, breaksLines);
  }

  private buildModel(parser: ParserLike): ConfigFile {
    const previous = this.previousModel;
    const stretch = this.changedStretch;
    this.previousModel = undefined;
    this.changedStretch = undefined;
    const text = this.text;
    if (this.isTooLarge) return unparsedConfigFile(this.path, text, tooLargeReason(text.length, this.maxLength()));
    const updated = previous && stretch ? updatedModel(previous, text, stretch) : undefined;
    if (updated) {
      this.modelBuilds.incremental++;
      return updated;
    }
    this.modelBuilds.full++;
    // Once declined, a text is only offered to the reader again after a parse (below): most edits keep it declined.
    const offeredToReader = this.tree === undefined;
    const plain = offeredToReader ? buildPlainConfigFile(this.path, text) : undefined;
    if (plain) return plain;
    let tree: Tree;
    try {
      tree = parser.parse(text, this.tree);
      if (this.tree && tree.rootNode.hasError) {
        // tree-sitter may recover from errors differently when it reuses an old tree: a broken file is parsed afresh,
        // so its syntax diagnostics never depend on the edits that led to it.
        tree.delete();
        tree = parser.parse(text);
      }
    } catch (error) {
      // The wasm parser is not loaded yet (lsp/server.ts loads it lazily): the caller loads it and asks again.
      if (error instanceof ParserNotLoaded) throw error;
      // A parse abandoned at its time limit: start from scratch next time rather than from a half-trusted tree.
      this.dropTree();
      const reason = error instanceof Error ? error.message : String(error);
      return unparsedConfigFile(this.path, text, `the file could not be parsed: ${reason}`);
    }
    this.dropTree();
    // A file that turned plain keeps no tree (its next model is read from the text); any other keeps it to re-parse.
    const plainNow = offeredToReader || tree.rootNode.hasError ? undefined : buildPlainConfigFile(this.path, text);
    if (plainNow) {
      tree.delete();
      return plainNow;
    }
    this.tree = tree;
    liveTrees++;
    return buildTreeConfigFile(this.path, text, tree);
  }

  private dropTree(): void {
    if (!this.tree) return;
    this.tree.delete();
    this.tree = undefined;
    liveTrees--;
  }
}

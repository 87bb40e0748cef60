// One document the client has open: its text (kept in sync incrementally), and the tree-sitter tree of that text,
// edited along with every change so the next parse can reuse everything the change did not touch.
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver/node.js';
import type { Tree } from 'web-tree-sitter';
import { buildConfigFile, unparsedConfigFile } from '../model/build.js';
import type { ParserLike } from '../model/file-loader.js';
import type { ConfigFile } from '../model/types.js';
import { clampRange, treeEditOf } from './text-edits.js';

/** Counts the trees alive in this process, so `nginxKeepalive/stats` can show they are all freed after a close. */
let liveTrees = 0;
export const liveTreeCount = (): number => liveTrees;

export function tooLargeReason(length: number, maxLength: number): string {
  return `the file is too large to analyze (${length} characters; the limit is ${maxLength}, setting nginxKeepalive.maxFileSize)`;
}

export class OpenDocument {
  private document: TextDocument;
  /** The tree of the text before the pending changes, already edited to match the current text; or none. */
  private tree: Tree | undefined;
  /** The model of the current text; undefined after a change until someone asks for it. */
  private model: ConfigFile | undefined;
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
        TextDocument.update(this.document, [{ range, text: change.text }], version);
      } else {
        this.dropTree();
        this.lspRowsMatch = !change.text.includes('\r');
        TextDocument.update(this.document, [{ text: change.text }], version);
      }
    }
    // A version bump without changes still counts: the client says this is the text of `version`.
    if (changes.length === 0) TextDocument.update(this.document, [], version);
    this.model = undefined;
    if (this.isTooLarge) this.dropTree();
  }

  /** The model of the current text, re-parsing incrementally when the text changed since the last call. */
  currentModel(parser: ParserLike): ConfigFile {
    this.model ??= this.buildModel(parser);
    return this.model;
  }

  dispose(): void {
    this.dropTree();
    this.model = undefined;
  }

  private buildModel(parser: ParserLike): ConfigFile {
    const text = this.text;
    if (this.isTooLarge) return unparsedConfigFile(this.path, text, tooLargeReason(text.length, this.maxLength()));
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
      // A parse abandoned at its time limit: start from scratch next time rather than from a half-trusted tree.
      this.dropTree();
      const reason = error instanceof Error ? error.message : String(error);
      return unparsedConfigFile(this.path, text, `the file could not be parsed: ${reason}`);
    }
    this.dropTree();
    this.tree = tree;
    liveTrees++;
    return buildConfigFile(this.path, text, tree);
  }

  private dropTree(): void {
    if (!this.tree) return;
    this.tree.delete();
    this.tree = undefined;
    liveTrees--;
  }
}

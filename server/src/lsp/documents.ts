// The open documents, by URI and by path, and the file host that shows their unsaved texts to the core in place of
// what is on disk.
import path from 'node:path';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver/node.js';
import { createFsHost } from '../util/fs-host.js';
import { createVirtualHost } from '../model/virtual-host.js';
import type { FileHost } from '../util/types.js';
import { liveTreeCount, OpenDocument } from './open-document.js';
import { pathOfUri } from './paths.js';

export const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;

export class OpenDocuments {
  private readonly byUri = new Map<string, OpenDocument>();
  private readonly byPath = new Map<string, OpenDocument>();

  /** `maxFileSize(file)`: the limit of the file's workspace folder (nginxKeepalive.maxFileSize can differ per folder). */
  constructor(private readonly maxFileSize: (file: string) => number = () => DEFAULT_MAX_FILE_SIZE) {}

  open(uri: string, version: number, text: string): OpenDocument {
    this.close(uri);
    const file = pathOfUri(uri);
    const document = new OpenDocument(uri, file, version, text, () => this.maxFileSize(file));
    this.byUri.set(uri, document);
    this.byPath.set(document.path, document);
    return document;
  }

  /** Undefined when the document is not open (the caller logs it: a client bug, not a reason to fail). */
  change(uri: string, changes: readonly TextDocumentContentChangeEvent[], version: number): OpenDocument | undefined {
    const document = this.byUri.get(uri);
    document?.applyChanges(changes, version);
    return document;
  }

  close(uri: string): OpenDocument | undefined {
    const document = this.byUri.get(uri);
    if (!document) return undefined;
    document.dispose();
    this.byUri.delete(uri);
    if (this.byPath.get(document.path) === document) this.byPath.delete(document.path);
    return document;
  }

  get(uri: string): OpenDocument | undefined {
    return this.byUri.get(uri);
  }

  atPath(filePath: string): OpenDocument | undefined {
    return this.byPath.get(path.resolve(filePath));
  }

  all(): OpenDocument[] {
    return [...this.byUri.values()];
  }

  stats(): { openDocuments: number; liveTrees: number } {
    return { openDocuments: this.byUri.size, liveTrees: liveTreeCount() };
  }

  disposeAll(): void {
    for (const uri of [...this.byUri.keys()]) this.close(uri);
  }
}

/** The disk, except that an open document's path reads as its current (possibly unsaved) text. */
export function overlayHost(documents: OpenDocuments, base: FileHost = createFsHost()): FileHost {
  return {
    readFile: (file) => documents.atPath(file)?.text ?? base.readFile(file),
    glob: (pattern, confinement) => base.glob(pattern, confinement),
    exists: (file) => documents.atPath(file) !== undefined || base.exists(file),
  };
}

/**
 * The open documents as the only files there are: the language server in a web worker has no disk. An include reaches
 * another open document (a glob matches among their paths, as for an `nginx -T` dump's files), nothing else.
 */
export function openDocumentsHost(documents: OpenDocuments): FileHost {
  return {
    virtual: true,
    readFile: (file) => documents.atPath(file)?.text,
    exists: (file) => documents.atPath(file) !== undefined,
    glob: (pattern, confinement) =>
      createVirtualHost(documents.all().map((document) => ({ path: document.path, text: document.text }))).glob(pattern, confinement),
  };
}

// Document and range formatting on the wire (features/format.ts does the work). Indentation: an `.editorconfig` in
// the document's workspace folder wins where it says something (so the editor formats as `nginx-keepalive format`
// does), else the request's FormattingOptions (tabSize, insertSpaces). A document with a syntax error is not
// formatted: the request answers no edits and window/showMessage says where and why. (A failed request would not
// do: vscode-languageclient shows only "Request textDocument/formatting failed." and puts the reason in the output
// channel.) Range formatting returns only edits that lie within the requested range (features/format.ts).
import {
  MessageType,
  ShowMessageNotification,
  type CancellationToken,
  type Connection,
  type FormattingOptions,
  type Range,
  type ServerCapabilities,
  type TextEdit,
} from './protocol.js';
import { editorConfigFor, mergeFormatOptions, MAX_EDITORCONFIG_BYTES } from '../features/format-editorconfig.js';
import { editsInRange, formatDocument, type FormatEdit, type FormatOptions } from '../features/format.js';
import { createReadScope } from '../model/read-scope.js';
import { loadNginxParser } from '../parser/loader.js';
import { readRegularFile } from '../util/read-file.js';
import type { OpenText } from './language-features.js';
import { deepestFolder, isFileUri, pathOfUri } from './paths.js';

export const formattingCapabilities: Partial<ServerCapabilities> = {
  documentFormattingProvider: true,
  documentRangeFormattingProvider: true,
};

/** A tab size the editor sends is trusted only within reason. */
const MAX_TAB_SIZE = 16;

function requestOptions(options: FormattingOptions): Partial<FormatOptions> {
  const size = Number.isInteger(options.tabSize) && options.tabSize >= 1 ? Math.min(options.tabSize, MAX_TAB_SIZE) : undefined;
  return { indentStyle: options.insertSpaces === false ? 'tab' : 'space', indentSize: size, tabWidth: size };
}

/** .editorconfig files are read only inside the workspace folder holding the document. */
function editorConfigOptions(uri: string, folders: readonly string[]): Partial<FormatOptions> {
  if (!isFileUri(uri)) return {};
  const file = pathOfUri(uri);
  const folder = deepestFolder(file, folders);
  if (folder === undefined) return {};
  const scope = createReadScope([folder]);
  return editorConfigFor(file, folder, (candidate) => {
    if (!scope.allows(candidate)) return undefined;
    const read = readRegularFile(candidate, MAX_EDITORCONFIG_BYTES);
    return read.kind === 'read' ? read.bytes.toString('utf8') : undefined;
  });
}

export function registerFormatting(
  connection: Connection,
  texts: (uri: string) => OpenText | undefined,
  folders: () => readonly string[],
): void {
  const format = async (uri: string, options: FormattingOptions, token: CancellationToken, range?: Range): Promise<TextEdit[] | null> => {
    const document = texts(uri);
    if (!document || document.isTooLarge || token.isCancellationRequested) return null;
    const lines = document.textDocument;
    const text = document.text;
    const settings = mergeFormatOptions(editorConfigOptions(uri, folders()), requestOptions(options));
    const result = formatDocument(await loadNginxParser(), pathOfUri(uri), text, settings);
    if (result.kind === 'refused') {
      const message = `nginx-keepalive: not formatted: ${result.reason} (line ${result.line}, column ${result.column})`;
      connection.console.warn(`${message}: ${uri}`);
      // A notification, not window/showMessageRequest: nothing to answer, so format-on-save is never held up.
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
      return [];
    }
    const edits: FormatEdit[] = range ? editsInRange(text, result.edits, lines.offsetAt(range.start), lines.offsetAt(range.end)) : result.edits;
    return edits.map((edit) => ({ range: { start: lines.positionAt(edit.start), end: lines.positionAt(edit.end) }, newText: edit.newText }));
  };
  connection.onDocumentFormatting((params, token) => format(params.textDocument.uri, params.options, token));
  connection.onDocumentRangeFormatting((params, token) => format(params.textDocument.uri, params.options, token, params.range));
}

// The language features on the wire: hover, completion (lsp/completion.ts), go to definition, find references,
// document symbols and semantic tokens, answered from the latest snapshot of the document (semantic tokens from its
// text alone, by one scan when it is plain nginx, without waiting for an analysis) by the headless functions in
// features/. This file only converts between the protocol (URIs, line/UTF-16 positions) and the model (paths, offsets).
import {
  SymbolKind,
  type CancellationToken,
  type Connection,
  type DocumentSymbol,
  type Hover,
  type Location,
  type SemanticTokens,
  type ServerCapabilities,
} from './protocol.js';
import type { FeatureLocation } from '../features/context.js';
import { hoverAt } from '../features/hover.js';
import { definitionsAt, referencesAt } from '../features/navigation.js';
import { LineIndex, lineIndexOf, type LspPosition, type LspRange } from '../features/positions.js';
import { collectPlainTokens } from '../features/plain-semantic-tokens.js';
import { collectTreeTokens, encodeSemanticTokens, SEMANTIC_TOKEN_TYPES, TokenPieces, toLineTokens } from '../features/semantic-tokens.js';
import { documentSymbols, type OutlineKind, type OutlineSymbol } from '../features/symbols.js';
import { loadNginxParser } from '../parser/loader.js';
import { uriOfPath } from './paths.js';
import { formattingCapabilities } from './formatting.js';
import { completionCapability, registerCompletion } from './completion.js';
import type { OpenDocument } from './open-document.js';
import type { DocumentSnapshot, SnapshotProvider } from './snapshot.js';

export const languageFeatureCapabilities: Partial<ServerCapabilities> = {
  hoverProvider: true,
  ...completionCapability,
  definitionProvider: true,
  referencesProvider: true,
  documentSymbolProvider: true,
  ...formattingCapabilities,
  semanticTokensProvider: {
    legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [] },
    full: true,
    range: true,
  },
};

const SYMBOL_KINDS: Record<OutlineKind, SymbolKind> = {
  namespace: SymbolKind.Namespace,
  server: SymbolKind.Class,
  location: SymbolKind.Method,
  upstream: SymbolKind.Struct,
  variable: SymbolKind.Variable,
  condition: SymbolKind.Operator,
};

type Offsets = FeatureLocation['span'];

function offsetIn(snapshot: DocumentSnapshot, position: LspPosition): number {
  return lineIndexOf(snapshot.file).offsetAt(position);
}

function rangeIn(snapshot: DocumentSnapshot, span: Offsets): LspRange {
  return lineIndexOf(snapshot.file).rangeOf(span);
}

/** The document itself keeps the URI its client sent; other files get a file URI of their path. */
function toLocation(snapshot: DocumentSnapshot, location: FeatureLocation): Location {
  const uri = location.file.path === snapshot.path ? snapshot.uri : uriOfPath(location.file.path);
  return { uri, range: lineIndexOf(location.file).rangeOf(location.span) };
}

function toDocumentSymbol(snapshot: DocumentSnapshot, symbol: OutlineSymbol): DocumentSymbol {
  return {
    name: symbol.name || symbol.detail,
    detail: symbol.detail,
    kind: SYMBOL_KINDS[symbol.kind],
    range: rangeIn(snapshot, symbol.range),
    selectionRange: rangeIn(snapshot, symbol.selectionRange),
    children: symbol.children.map((child) => toDocumentSymbol(snapshot, child)),
  };
}

/**
 * Runs `answer` on the document's snapshot. No snapshot (not open, not nginx) or a cancelled request gives null; a
 * feature that throws is logged and gives null too, so one odd document never takes the other features down.
 */
function withSnapshot<T, S = DocumentSnapshot>(
  connection: Connection,
  snapshots: (uri: string) => Promise<S | undefined>,
  feature: string,
  answer: (snapshot: S) => T | Promise<T>,
) {
  return async (uri: string, token: CancellationToken): Promise<T | null> => {
    try {
      const snapshot = await snapshots(uri);
      if (!snapshot || token.isCancellationRequested) return null;
      return await answer(snapshot);
    } catch (error) {
      connection.console.error(`${feature} failed for ${uri}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      return null;
    }
  };
}

/** An open document's text, for the features that read nothing else (semantic tokens parse the text alone). */
export type OpenText = Pick<OpenDocument, 'text' | 'isTooLarge' | 'textDocument'>;

/** The token pieces of one version of an open document: VS Code asks for full and range tokens of the same version. */
interface VersionPieces {
  version: number;
  text: string;
  pieces: TokenPieces;
  lines: LineIndex;
}
const piecesByDocument = new WeakMap<OpenText, VersionPieces>();

/** A plain document's pieces need no tree: the wasm parser is loaded only for a text the text reader declines. */
async function piecesOf(document: OpenText): Promise<VersionPieces> {
  const text = document.text;
  const version = document.textDocument.version;
  const cached = piecesByDocument.get(document);
  if (cached && cached.version === version && cached.text === text) return cached;
  let pieces = new TokenPieces(text.length);
  if (!collectPlainTokens(text, pieces)) {
    pieces = new TokenPieces(text.length);
    collectTreeTokens(await loadNginxParser(), text, pieces);
  }
  const entry = { version, text, pieces, lines: new LineIndex(text) };
  // Only the latest version is kept; a text changed during the parser's load is not stored as this version's.
  if (document.text === text) piecesByDocument.set(document, entry);
  return entry;
}

async function semanticTokensOf(document: OpenText, range?: LspRange): Promise<SemanticTokens> {
  const lines = document.textDocument;
  const offsets = range && { startOffset: lines.offsetAt(range.start), endOffset: lines.offsetAt(range.end) };
  const entry = await piecesOf(document);
  return { data: encodeSemanticTokens(toLineTokens(entry.pieces.replay(offsets), entry.lines)) };
}

/**
 * `texts` gives the open documents' texts: semantic tokens are answered from them at once, without waiting for an
 * analysis (on first open the client asks before the model exists; see feedback.ts for the refresh that follows).
 */
export function registerLanguageFeatures(
  connection: Connection,
  snapshots: SnapshotProvider,
  texts: (uri: string) => OpenText | undefined,
  completionSnippets: () => boolean = () => false,
): void {
  registerCompletion(connection, snapshots, completionSnippets);
  const run = <T>(feature: string, answer: (snapshot: DocumentSnapshot) => T | Promise<T>) =>
    withSnapshot(connection, snapshots, feature, answer);
  const tokensOf = (feature: string, range?: LspRange) =>
    withSnapshot(connection, async (uri: string) => texts(uri), feature, (document: OpenText) => (document.isTooLarge ? null : semanticTokensOf(document, range)));

  connection.onHover((params, token) =>
    run('hover', (snapshot): Hover | null => {
      const hover = hoverAt(snapshot, offsetIn(snapshot, params.position));
      return hover ? { contents: { kind: 'markdown', value: hover.markdown }, range: rangeIn(snapshot, hover.span) } : null;
    })(params.textDocument.uri, token),
  );

  connection.onDefinition((params, token) =>
    run('definition', (snapshot) =>
      definitionsAt(snapshot, offsetIn(snapshot, params.position)).map((location) => toLocation(snapshot, location)),
    )(params.textDocument.uri, token),
  );

  connection.onReferences((params, token) =>
    run('references', (snapshot) =>
      referencesAt(snapshot, offsetIn(snapshot, params.position), params.context.includeDeclaration).map((location) =>
        toLocation(snapshot, location),
      ),
    )(params.textDocument.uri, token),
  );

  connection.onDocumentSymbol((params, token) =>
    run('documentSymbol', (snapshot) => documentSymbols(snapshot.file).map((symbol) => toDocumentSymbol(snapshot, symbol)))(
      params.textDocument.uri,
      token,
    ),
  );

  connection.languages.semanticTokens.on(async (params, token) => {
    const tokens = await tokensOf('semanticTokens')(params.textDocument.uri, token);
    return tokens ?? { data: [] };
  });

  connection.languages.semanticTokens.onRange(async (params, token) => {
    const tokens = await tokensOf('semanticTokens/range', params.range)(params.textDocument.uri, token);
    return tokens ?? { data: [] };
  });
}

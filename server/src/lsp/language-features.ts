// The language features on the wire: hover, go to definition, find references, document symbols and semantic tokens,
// answered from the latest snapshot of the document by the headless functions in features/. This file only converts
// between the protocol (URIs, line/UTF-16 positions) and the model (paths, offsets).
import {
  SymbolKind,
  type CancellationToken,
  type Connection,
  type DocumentSymbol,
  type Hover,
  type Location,
  type SemanticTokens,
  type ServerCapabilities,
} from 'vscode-languageserver/node.js';
import type { FeatureLocation } from '../features/context.js';
import { hoverAt } from '../features/hover.js';
import { definitionsAt, referencesAt } from '../features/navigation.js';
import { lineIndexOf, type LspPosition, type LspRange } from '../features/positions.js';
import { collectSemanticTokens, encodeSemanticTokens, SEMANTIC_TOKEN_TYPES } from '../features/semantic-tokens.js';
import { documentSymbols, type OutlineKind, type OutlineSymbol } from '../features/symbols.js';
import { loadNginxParser } from '../parser/loader.js';
import { uriOfPath } from './paths.js';
import type { DocumentSnapshot, SnapshotProvider } from './snapshot.js';

export const languageFeatureCapabilities: Partial<ServerCapabilities> = {
  hoverProvider: true,
  definitionProvider: true,
  referencesProvider: true,
  documentSymbolProvider: true,
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
function withSnapshot<T>(
  connection: Connection,
  snapshots: SnapshotProvider,
  feature: string,
  answer: (snapshot: DocumentSnapshot) => T | Promise<T>,
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

async function semanticTokensOf(snapshot: DocumentSnapshot, range?: LspRange): Promise<SemanticTokens> {
  const offsets = range && { startOffset: offsetIn(snapshot, range.start), endOffset: offsetIn(snapshot, range.end) };
  const tokens = collectSemanticTokens(await loadNginxParser(), snapshot.file.text, offsets);
  return { data: encodeSemanticTokens(tokens) };
}

export function registerLanguageFeatures(connection: Connection, snapshots: SnapshotProvider): void {
  const run = <T>(feature: string, answer: (snapshot: DocumentSnapshot) => T | Promise<T>) =>
    withSnapshot(connection, snapshots, feature, answer);

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
    const tokens = await run('semanticTokens', (snapshot) => semanticTokensOf(snapshot))(params.textDocument.uri, token);
    return tokens ?? { data: [] };
  });

  connection.languages.semanticTokens.onRange(async (params, token) => {
    const answer = run('semanticTokens/range', (snapshot) => semanticTokensOf(snapshot, params.range));
    const tokens = await answer(params.textDocument.uri, token);
    return tokens ?? { data: [] };
  });
}

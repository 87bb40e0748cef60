// What the client said it can do, read once at initialize. Every optional LSP capability the server relies on is
// checked here, so a minimal client (Helix, an old Neovim) gets a server that only uses what it understands.
import type { ClientCapabilities } from 'vscode-languageserver/node.js';

export interface ClientFeatures {
  /** workspace/configuration: settings are pulled; otherwise they come from didChangeConfiguration or init options. */
  pullsConfiguration: boolean;
  registersConfigurationChanges: boolean;
  registersWatchedFiles: boolean;
  workspaceFolderChanges: boolean;
  /** Versioned edits (documentChanges) in a WorkspaceEdit. */
  documentChanges: boolean;
  /** codeAction/resolve may fill in `edit`. */
  resolvesCodeActionEdits: boolean;
  /** textDocument/diagnostic (and so workspace/diagnostic): the client pulls diagnostics instead of being sent them. */
  pullsDiagnostics: boolean;
  /** workspace/diagnostic/refresh: the client pulls again when asked. */
  refreshesDiagnostics: boolean;
  /** Completion items may be snippets (`location ${1:/} {...}`); otherwise plain words are inserted. */
  completionSnippets: boolean;
}

export function readClientFeatures(capabilities: ClientCapabilities): ClientFeatures {
  const workspace = capabilities.workspace;
  return {
    pullsConfiguration: workspace?.configuration === true,
    registersConfigurationChanges: workspace?.didChangeConfiguration?.dynamicRegistration === true,
    registersWatchedFiles: workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    workspaceFolderChanges: workspace?.workspaceFolders === true,
    documentChanges: workspace?.workspaceEdit?.documentChanges === true,
    resolvesCodeActionEdits: capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true,
    pullsDiagnostics: capabilities.textDocument?.diagnostic !== undefined,
    refreshesDiagnostics: workspace?.diagnostics?.refreshSupport === true,
    completionSnippets: capabilities.textDocument?.completion?.completionItem?.snippetSupport === true,
  };
}

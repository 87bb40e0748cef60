// Entry point of dist/server-browser.js: the language server in a web worker (VS Code for the Web starts it from
// the extension's `browser` entry). It speaks LSP over the worker's messages. There is no disk: the documents the
// editor opens are the only files (an include reaches another open document, nothing else), and the wasm parser is
// fetched from beside this script.
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser.js';
import { loadWasmFrom } from '../parser/loader.js';
import { startLanguageServer } from './server.js';

/** The worker's global scope: what the reader and writer listen on and post to. */
const scope = globalThis as unknown as Worker & { location: Location };

const here = scope.location.href;
loadWasmFrom({ runtime: new URL('web-tree-sitter.wasm', here).href, grammar: new URL('tree-sitter-nginx.wasm', here).href });
startLanguageServer(createConnection(new BrowserMessageReader(scope), new BrowserMessageWriter(scope)), { disk: false });

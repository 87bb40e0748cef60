// vscode-languageserver's node entry, imported here once for the whole server. It is CommonJS: the bundle gives each
// ES module that imports values from it a namespace copy of its thousand-odd exports, and with a dozen importers
// those copies were 12 ms of the server's start-up before the first diagnostics. Import its values from here (types
// may come from the package itself: they are erased).
export * from 'vscode-languageserver/node.js';

// Node flags the extension starts the language server with. V8 grows its young generation to 16 MB per semi-space
// when a large file is analysed on every keystroke, and keeps it: with the 1 MB benchmark file open that was 40 to
// 65 MB of the server's RSS (bench:lsp measures both). 4 MB semi-spaces cost no measurable latency there. Other
// editors start the server with plain `node`; docs/editors.md gives them the same flag.
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

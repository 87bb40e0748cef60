// Entry point of dist/server.js: the language server alone (editors start it with --stdio or --node-ipc).
import { startLanguageServer } from './server.js';

startLanguageServer();

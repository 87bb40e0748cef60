// The names the extension shares with package.json and the language server, in a module without `vscode` so the
// manifest test can import them and check all three agree.

/** The settings section the server reads (nginxKeepalive.rules, .nginxVersion, .keepaliveConnections, .pathMap). */
export const CONFIGURATION_SECTION = 'nginxKeepalive';
/** The language id, the same one the popular nginx syntax extensions use, so they work side by side. */
export const LANGUAGE_ID = 'nginx';
/** The client command in the command palette (package.json contributes.commands). */
export const FIX_ALL_COMMAND = 'nginxKeepalive.fixAllInWorkspace';
/** Stops and starts the language server again (a stuck analysis, a changed setting file nobody watched). */
export const RESTART_COMMAND = 'nginxKeepalive.restartServer';
/** Shows the output channel: the server's version, start-up and log. */
export const SHOW_OUTPUT_COMMAND = 'nginxKeepalive.showOutput';
/** The command the server executes (its executeCommandProvider); it applies the fixes with workspace/applyEdit. */
export const SERVER_FIX_ALL_COMMAND = 'nginx-keepalive.fixAllInWorkspace';
/** The output channel the server's log goes to. */
export const OUTPUT_CHANNEL = 'nginx-keepalive';
/** A quick pick of the rules, then the chosen rule's documentation page as a Markdown preview. */
export const SHOW_RULE_DOCUMENTATION_COMMAND = 'nginxKeepalive.showRuleDocumentation';
/** The read-only virtual documents holding the rules' pages (nginx-keepalive-rule:/<id>.md). */
export const RULE_DOCUMENT_SCHEME = 'nginx-keepalive-rule';
/** The server's requests the client sends (server/src/lsp/status.ts, rule-documentation.ts). */
export const STATUS_REQUEST = 'nginxKeepalive/status';
export const RULES_REQUEST = 'nginxKeepalive/rules';
export const RULE_DOCUMENTATION_REQUEST = 'nginxKeepalive/ruleDocumentation';
/** "nginx-keepalive: Prove connection reuse" (client/src/prove-command.ts); the node entry alone registers it. */
export const PROVE_COMMAND = 'nginxKeepalive.proveConnectionReuse';
/**
 * Set by the node entry once the command is registered; the command palette shows the command only with it (and a
 * trusted workspace). The browser entry never sets it: VS Code for the Web has no nginx to run.
 */
export const PROVE_AVAILABLE_CONTEXT = 'nginxKeepalive.proveAvailable';
/** The nginx binary prove runs (`prove --nginx`); empty: the CLI's own choice. Under CONFIGURATION_SECTION. */
export const PROVE_NGINX_PATH_SETTING = 'prove.nginxPath';

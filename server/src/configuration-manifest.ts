// package.json's contributes.configuration, built from the rule registry so the Settings editor lists every rule
// with its default severity and description. Build-time only: scripts/generate.mjs writes its output into
// package.json (`npm run generate`) and test/generated.test.ts fails when the two differ. The extension
// bundle never imports it.
//
// The defaults are "unset" ("" / null), which the server reads as "not chosen": the client sends the whole section,
// and a default that looked like a choice would hide the server's own defaults. The one exception is the rules
// object: its default lists every rule at the rule's own default severity, so the Settings editor shows each rule as
// a row to change (an empty object showed nothing until the user added a rule by name), and choosing a rule's default
// is the same as not choosing. Every setting has a type the Settings editor renders (test/extension-manifest.test.ts).
// A project's .nginx-keepalive.json overrides these settings key by key (server/src/lsp/settings-store.ts).
import { DISTRIBUTION_BUILDS } from './model/distribution-builds.js';
import { BYTE_SIZE_PATTERN } from './util/byte-size.js';
import { KEEPALIVE_CONNECTIONS_RANGE, NGINX_VERSION_PATTERN, SEVERITY_SETTINGS } from './engine/config-file.js';
import { DEFAULT_KEEPALIVE_CONNECTIONS } from './engine/options.js';
import { DEFAULT_MAX_FILE_SIZE } from './lsp/documents.js';
import { docsUrl } from './engine/docs-url.js';
import type { Rule } from './analysis/rule-api.js';
import {
  SETTINGS_SECTION as SETTINGS_PREFIX,
  WORKSPACE_DIAGNOSTICS_MAX_BYTES,
  WORKSPACE_DIAGNOSTICS_MAX_FILES,
} from './lsp/editor-settings.js';

const PROJECT_FILE_WINS = "A project's `.nginx-keepalive.json` takes precedence";

function ruleSetting(rule: Rule): Record<string, unknown> {
  return {
    type: 'string',
    enum: [...SEVERITY_SETTINGS],
    default: rule.meta.defaultSeverity,
    description: rule.meta.description,
    markdownDescription: `${rule.meta.description} ([${rule.meta.id}](${docsUrl(rule.meta.id)}))`,
  };
}

function rulesSetting(rules: readonly Rule[]): Record<string, unknown> {
  return {
    type: 'object',
    scope: 'resource',
    default: Object.fromEntries(rules.map((rule) => [rule.meta.id, rule.meta.defaultSeverity])),
    additionalProperties: false,
    properties: Object.fromEntries(rules.map((rule) => [rule.meta.id, ruleSetting(rule)])),
    markdownDescription:
      'Severity per rule id (`"off"` disables a rule); a rule left out keeps its default. ' +
      `${PROJECT_FILE_WINS}, rule by rule.`,
  };
}

function nginxVersionSetting(): Record<string, unknown> {
  return {
    type: 'string',
    scope: 'resource',
    default: '',
    pattern: `^$|${NGINX_VERSION_PATTERN}`,
    patternErrorMessage: 'An nginx version such as 1.22.1, or empty.',
    markdownDescription:
      'The nginx version the configurations run on, e.g. `1.22.1`. ' +
      'Empty: the version a Dockerfile (`FROM nginx:1.27`) or compose file (`image: nginx:stable`) of the workspace ' +
      `folder names, else before 1.29.7 (every distribution's nginx today). ${PROJECT_FILE_WINS}.`,
  };
}

function nginxBuildSetting(): Record<string, unknown> {
  return {
    type: 'string',
    scope: 'resource',
    default: '',
    enum: ['', ...DISTRIBUTION_BUILDS.map((build) => build.id)],
    markdownDescription:
      "A distribution's build of nginx, whose backported directives are accepted: `debian-12` is Debian 12's 1.22.1 " +
      'with `max_headers`. Its release is the nginx version when `nginxKeepalive.nginxVersion` is empty. ' +
      `Empty: nginx as nginx.org releases it. ${PROJECT_FILE_WINS}.`,
  };
}

function keepaliveConnectionsSetting(): Record<string, unknown> {
  return {
    type: ['integer', 'null'],
    scope: 'resource',
    default: null,
    minimum: KEEPALIVE_CONNECTIONS_RANGE.minimum,
    maximum: KEEPALIVE_CONNECTIONS_RANGE.maximum,
    markdownDescription:
      `The N of the \`keepalive N;\` that fixes insert. Empty: ${DEFAULT_KEEPALIVE_CONNECTIONS}. ${PROJECT_FILE_WINS}.`,
  };
}

function pathMapSetting(): Record<string, unknown> {
  return {
    type: 'object',
    scope: 'resource',
    default: {},
    propertyNames: { pattern: '^/' },
    additionalProperties: { type: 'string', minLength: 1 },
    markdownDescription:
      'Absolute include prefix → local directory (relative to the workspace folder), e.g. ' +
      '`{ "/etc/nginx": "deploy/nginx" }`, so `include /etc/nginx/conf.d/*.conf;` is read from the repository.',
  };
}

/**
 * A string, so the Settings editor renders a text box (it renders no field for a number-or-string type). The server
 * still accepts a number written in settings.json, as the settings file does.
 */
function maxFileSizeSetting(): Record<string, unknown> {
  return {
    type: 'string',
    scope: 'resource',
    default: `${DEFAULT_MAX_FILE_SIZE / 1024 / 1024}M`,
    pattern: BYTE_SIZE_PATTERN,
    patternErrorMessage: 'A size such as 10M, 512K or 1048576 (bytes).',
    markdownDescription:
      'Documents longer than this many characters (about bytes) are not parsed or checked: `10M`, `512K`, or a number of bytes, as in `.nginx-keepalive.json`.',
  };
}

function diagnosticsSetting(): Record<string, unknown> {
  return {
    type: 'string',
    scope: 'resource',
    enum: ['workspace', 'openFiles'],
    default: 'workspace',
    enumDescriptions: [
      `Every nginx file of the workspace folder, open or not, while the folders hold at most ${WORKSPACE_DIAGNOSTICS_MAX_FILES} nginx files (${WORKSPACE_DIAGNOSTICS_MAX_BYTES / 1024 / 1024} MB); beyond that, open files only.`,
      'Open files only.',
    ],
    markdownDescription:
      'Which files are checked: `workspace` reports problems in every nginx file of the workspace folder, open or not ' +
      `(up to ${WORKSPACE_DIAGNOSTICS_MAX_FILES} nginx files of ${WORKSPACE_DIAGNOSTICS_MAX_BYTES / 1024 / 1024} MB in all; beyond that the output says so and only open files are checked); ` +
      '`openFiles` checks the files open in editors.',
  };
}

function codeLensSetting(): Record<string, unknown> {
  return {
    type: 'boolean',
    scope: 'resource',
    default: true,
    markdownDescription:
      'Shows a line above each `upstream` block: whether it keeps connections, and how many of the passes using it ' +
      'reuse them or what they still need (`keepalive ✓ · 3 passes ready`, `keepalive off · 2 passes need HTTP/1.1`).',
  };
}

/**
 * Read by the extension's "Prove connection reuse" (client/src/prove-command.ts), not by the server: the nginx it
 * passes to `prove --nginx`. A program to run, so a workspace may not set it in Restricted Mode (package.json's
 * restrictedConfigurations). Scoped like the others (resource): a machine scope would hide it from the Settings
 * editor's User tab in a remote window such as code-server's (test/e2e/settings-ui.e2e.ts).
 */
function proveNginxPathSetting(): Record<string, unknown> {
  return {
    type: 'string',
    scope: 'resource',
    default: '',
    markdownDescription:
      'The nginx binary *nginx-keepalive: Prove connection reuse* runs (`prove --nginx`) on a sandboxed copy of the ' +
      'configuration. Empty: `nginx` on `PATH`, then `/usr/sbin/nginx`, as the command line chooses.',
  };
}

/** Read by the language client itself (its id is the section name), not by the server. */
function traceSetting(): Record<string, unknown> {
  return {
    type: 'string',
    scope: 'window',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    description: 'Traces the messages between VS Code and the language server in the nginx-keepalive output channel.',
  };
}

export function buildConfigurationContribution(rules: readonly Rule[]): Record<string, unknown> {
  return {
    title: 'nginx-keepalive',
    properties: {
      [`${SETTINGS_PREFIX}.rules`]: rulesSetting(rules),
      [`${SETTINGS_PREFIX}.nginxVersion`]: nginxVersionSetting(),
      [`${SETTINGS_PREFIX}.nginxBuild`]: nginxBuildSetting(),
      [`${SETTINGS_PREFIX}.keepaliveConnections`]: keepaliveConnectionsSetting(),
      [`${SETTINGS_PREFIX}.pathMap`]: pathMapSetting(),
      [`${SETTINGS_PREFIX}.maxFileSize`]: maxFileSizeSetting(),
      [`${SETTINGS_PREFIX}.diagnostics`]: diagnosticsSetting(),
      [`${SETTINGS_PREFIX}.codeLens.enabled`]: codeLensSetting(),
      [`${SETTINGS_PREFIX}.prove.nginxPath`]: proveNginxPathSetting(),
      [`${SETTINGS_PREFIX}.trace.server`]: traceSetting(),
    },
  };
}

/** package.json's text with contributes.configuration replaced, in the file's own format (two spaces, final newline). */
export function withConfigurationContribution(packageJsonText: string, rules: readonly Rule[]): string {
  const manifest = JSON.parse(packageJsonText) as { contributes?: Record<string, unknown> };
  manifest.contributes = { ...manifest.contributes, configuration: buildConfigurationContribution(rules) };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

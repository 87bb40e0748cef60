// package.json's contributes.configuration, built from the rule registry so the Settings editor lists every rule
// with its default severity and description. Build-time only: scripts/generate.mjs writes its output into
// package.json (`npm run generate`) and test/generated.test.ts fails when the two differ. The extension
// bundle never imports it.
//
// The defaults are "unset" ({} / "" / null), which the server reads as "not chosen": the client sends the whole
// section, and a default that looked like a choice would hide the server's own defaults. A project's
// .nginx-keepalive.json overrides these settings key by key (server/src/lsp/settings-store.ts).
import { BYTE_SIZE_PATTERN } from './util/byte-size.js';
import { KEEPALIVE_CONNECTIONS_RANGE, NGINX_VERSION_PATTERN, SEVERITY_SETTINGS } from './engine/config-file.js';
import { DEFAULT_KEEPALIVE_CONNECTIONS } from './engine/options.js';
import { DEFAULT_MAX_FILE_SIZE } from './lsp/documents.js';
import { docsUrl } from './engine/docs-url.js';
import type { Rule } from './analysis/rule-api.js';
import { SETTINGS_SECTION as SETTINGS_PREFIX } from './lsp/editor-settings.js';

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
    default: {},
    additionalProperties: false,
    properties: Object.fromEntries(rules.map((rule) => [rule.meta.id, ruleSetting(rule)])),
    markdownDescription:
      'Severity per rule id (`"off"` disables a rule); a rule not listed keeps its default. ' +
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

function maxFileSizeSetting(): Record<string, unknown> {
  return {
    type: ['integer', 'string'],
    scope: 'resource',
    default: DEFAULT_MAX_FILE_SIZE,
    minimum: 1,
    pattern: BYTE_SIZE_PATTERN,
    markdownDescription:
      'Documents longer than this many characters (about bytes) are not parsed or checked: a number, or `512K`, `20M` as in `.nginx-keepalive.json`.',
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
      [`${SETTINGS_PREFIX}.keepaliveConnections`]: keepaliveConnectionsSetting(),
      [`${SETTINGS_PREFIX}.pathMap`]: pathMapSetting(),
      [`${SETTINGS_PREFIX}.maxFileSize`]: maxFileSizeSetting(),
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

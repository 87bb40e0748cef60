// The JSON schema of `.nginx-keepalive.json`, generated from the rule registry so editors complete rule ids and
// severities. schemas/nginx-keepalive.schema.json is this function's output (`npm run generate` rewrites it;
// test/generated.test.ts fails when it is stale). The validation that counts is config-file.ts; both read the same
// constants.
import { DISTRIBUTION_BUILDS } from '../model/distribution-builds.js';
import type { Rule } from '../analysis/rule-api.js';
import { BYTE_SIZE_PATTERN, DEFAULT_MAX_FILE_BYTES, MAX_FILE_BYTES_CEILING } from '../util/byte-size.js';
import { DIRECTIVE_NAME_PATTERN, KEEPALIVE_CONNECTIONS_RANGE, NGINX_VERSION_PATTERN, SEVERITY_SETTINGS } from './config-file.js';
import { DEFAULT_KEEPALIVE_CONNECTIONS } from './options.js';
import { GIVEN_CONTEXT_NAMES } from './given-contexts.js';

export const CONFIG_SCHEMA_ID =
  'https://raw.githubusercontent.com/nginx-keepalive/nginx-keepalive/main/schemas/nginx-keepalive.schema.json';

function ruleProperty(rule: Rule): Record<string, unknown> {
  return { description: rule.meta.description, enum: [...SEVERITY_SETTINGS], default: rule.meta.defaultSeverity };
}

export function buildConfigSchema(rules: readonly Rule[]): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: CONFIG_SCHEMA_ID,
    title: 'nginx-keepalive settings (.nginx-keepalive.json)',
    description:
      'Found upward from the checked paths; command-line flags override it. Unknown keys and values are errors.',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'The schema this file follows (for editors).' },
      rules: {
        description: 'Rule id -> severity; "off" disables the rule.',
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(rules.map((rule) => [rule.meta.id, ruleProperty(rule)])),
      },
      nginxVersion: {
        description:
          'The nginx version the configuration runs on, e.g. "1.22.1" (default: the version a Dockerfile or compose ' +
          'file of the repository names, else before 1.29.7). --nginx-version overrides it.',
        type: 'string',
        pattern: NGINX_VERSION_PATTERN,
      },
      nginxBuild: {
        description:
          "A distribution's build of nginx, whose backported directives are accepted (\"debian-12\": Debian 12's 1.22.1 " +
          'with max_headers); its release is the nginx version when nginxVersion is not given. --nginx-build overrides it.',
        enum: DISTRIBUTION_BUILDS.map((build) => build.id),
      },
      keepaliveConnections: {
        description: 'The N of the `keepalive N;` that fixes insert.',
        type: 'integer',
        minimum: KEEPALIVE_CONNECTIONS_RANGE.minimum,
        maximum: KEEPALIVE_CONNECTIONS_RANGE.maximum,
        default: DEFAULT_KEEPALIVE_CONNECTIONS,
      },
      pathMap: {
        description:
          'Absolute include prefix -> local directory (relative to this file), e.g. {"/etc/nginx": "deploy/nginx"}.',
        type: 'object',
        propertyNames: { pattern: '^/' },
        additionalProperties: { type: 'string', minLength: 1 },
      },
      maxFileSize: {
        description:
          'Files larger than this are not checked (an error says so): bytes, or a size such as "20M" or "512K".',
        anyOf: [
          { type: 'integer', minimum: 1, maximum: MAX_FILE_BYTES_CEILING },
          { type: 'string', pattern: BYTE_SIZE_PATTERN },
        ],
        default: `${DEFAULT_MAX_FILE_BYTES / 1024 ** 2}M`,
      },
      contexts: {
        description:
          'Glob (relative to this file; without "/" it matches the file name anywhere) -> the top-level context of ' +
          'the snippets it matches when they are checked on their own, e.g. {"snippets/*.conf": "location"}. The ' +
          'first matching glob wins; a file\'s own "# nginx-keepalive: context=" comment and --context win over it.',
        type: 'object',
        propertyNames: { minLength: 1 },
        additionalProperties: { enum: [...GIVEN_CONTEXT_NAMES] },
      },
      directives: {
        description: 'What the `directive` rule takes as known besides the directive table.',
        type: 'object',
        additionalProperties: false,
        properties: {
          extra: {
            description:
              'Directives of third-party modules your nginx is built with, e.g. ["more_set_headers", "vhost_traffic_status_zone"]: ' +
              'never reported as unknown, and not checked for context or arguments.',
            type: 'array',
            items: { type: 'string', pattern: DIRECTIVE_NAME_PATTERN },
            uniqueItems: true,
          },
        },
      },
    },
  };
}

/** The committed file's exact text: two-space JSON and a final newline. */
export function renderConfigSchema(rules: readonly Rule[]): string {
  return `${JSON.stringify(buildConfigSchema(rules), null, 2)}\n`;
}

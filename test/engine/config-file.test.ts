import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_FILE_NAME,
  ConfigError,
  findConfigFile,
  parseConfig,
  readConfigFile,
} from '../../server/src/engine/config-file.js';
import { buildConfigSchema } from '../../server/src/engine/config-schema.js';
import { rules } from '../../server/src/rules/registry.js';
import { tempTree } from '../model/support.js';

const known = new Set(rules.map((rule) => rule.meta.id));
const FILE = '/project/.nginx-keepalive.json';

function errorOf(text: string): ConfigError {
  try {
    parseConfig(text, FILE, known);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('findConfigFile', () => {
  it('finds the nearest settings file upward from a file, a directory, or a path that does not exist', () => {
    const root = tempTree({
      [CONFIG_FILE_NAME]: '{}',
      'deploy/nginx/nginx.conf': '',
      'deploy/nginx/sub/x.conf': '',
      'app/.nginx-keepalive.json': '{}',
      'app/nginx/site.conf': '',
    });
    expect(findConfigFile(path.join(root, 'deploy/nginx/nginx.conf'))).toBe(path.join(root, CONFIG_FILE_NAME));
    expect(findConfigFile(path.join(root, 'deploy/nginx/sub'))).toBe(path.join(root, CONFIG_FILE_NAME));
    expect(findConfigFile(path.join(root, 'deploy/**/*.conf'))).toBe(path.join(root, CONFIG_FILE_NAME));
    expect(findConfigFile(path.join(root, 'app/nginx/site.conf'))).toBe(path.join(root, 'app', CONFIG_FILE_NAME));
  });

  it('ignores a directory named like the settings file, and stops at the file-system root', () => {
    const root = tempTree({ '.nginx-keepalive.json/not-a-file': '', 'a/b.conf': '' });
    const found = findConfigFile(path.join(root, 'a/b.conf'));
    expect(found === undefined || !found.startsWith(root)).toBe(true);
  });
});

describe('parseConfig', () => {
  it('reads every key, normalises the version and resolves pathMap targets against the file', () => {
    const config = parseConfig(
      JSON.stringify({
        $schema: './schemas/nginx-keepalive.schema.json',
        rules: { include: 'off', syntax: 'warning' },
        nginxVersion: '1.25',
        keepaliveConnections: 64,
        pathMap: { '/etc/nginx/': 'deploy/nginx', '/opt': '/abs/opt' },
        contexts: { 'snippets/*.conf': 'location', '*.http.conf': 'http' },
      }),
      FILE,
      known,
    );
    expect(config).toEqual({
      path: FILE,
      rules: { include: 'off', syntax: 'warning' },
      nginxVersion: '1.25.0',
      keepaliveConnections: 64,
      pathMap: [
        { from: '/etc/nginx', to: '/project/deploy/nginx' },
        { from: '/opt', to: '/abs/opt' },
      ],
      contexts: [
        { pattern: 'snippets/*.conf', context: 'location' },
        { pattern: '*.http.conf', context: 'http' },
      ],
    });
  });

  it('accepts an empty object and a byte order mark', () => {
    expect(parseConfig('\uFEFF{}', FILE, known)).toEqual({ path: FILE, rules: {}, pathMap: [], contexts: [] });
  });

  it.each([
    ['{ "rules": ', /^invalid JSON: /],
    ['[]', /^expected a JSON object, got \[\]$/],
    ['{"rule": {}}', /^unknown key "rule" \(expected one of: rules, nginxVersion, nginxBuild, keepaliveConnections, pathMap, maxFileSize, contexts, directives\)$/],
    ['{"contexts": {"*.conf": "if"}}', /^"contexts\.\*\.conf": expected one of main, http, server, location, stream, upstream, got "if"$/],
    ['{"contexts": ["a"]}', /^"contexts" must be an object of glob -> main\|http/],
    ['{"rules": []}', /^"rules" must be an object of rule id -> off\|info\|warning\|error$/],
    ['{"rules": {"no-such-rule": "off"}}', /^"rules": unknown rule "no-such-rule" \(known: syntax, include, /],
    ['{"rules": {"include": "warn"}}', /^"rules.include": expected one of off, info, warning, error, got "warn"$/],
    ['{"rules": {"include": 1}}', /^"rules.include": expected one of .*, got 1$/],
    ['{"nginxVersion": "latest"}', /^"nginxVersion": expected a version such as "1.22.1", got "latest"$/],
    ['{"nginxVersion": 1.22}', /^"nginxVersion": .* got 1.22$/],
    ['{"keepaliveConnections": 0}', /^"keepaliveConnections": expected an integer from 1 to 10000, got 0$/],
    ['{"keepaliveConnections": 10001}', /^"keepaliveConnections": .* got 10001$/],
    ['{"keepaliveConnections": 1.5}', /^"keepaliveConnections": .* got 1.5$/],
    ['{"keepaliveConnections": "16"}', /^"keepaliveConnections": .* got "16"$/],
    ['{"pathMap": ["/etc/nginx"]}', /^"pathMap" must be an object of include prefix -> local directory$/],
    ['{"pathMap": {"etc/nginx": "x"}}', /^"pathMap": "etc\/nginx" must be an absolute include prefix/],
    ['{"pathMap": {"/etc/nginx": ""}}', /^"pathMap.\/etc\/nginx": expected a directory path, got ""$/],
  ])('rejects %s, naming the key', (text, detail) => {
    const error = errorOf(text);
    expect(error.file).toBe(FILE);
    expect(error.detail).toMatch(detail);
    expect(error.message).toBe(`${FILE}: ${error.detail}`);
  });
});

describe('readConfigFile', () => {
  it('reads a real file and says so when it is missing', () => {
    const root = tempTree({ 'nk.json': '{"nginxVersion": "1.30.0"}' });
    expect(readConfigFile(path.join(root, 'nk.json'), known).nginxVersion).toBe('1.30.0');
    expect(() => readConfigFile(path.join(root, 'missing.json'), known)).toThrow(/missing.json: cannot read the settings file: no such file/);
  });
});

describe('the shipped schema', () => {
  it('lists every rule with the severities parseConfig accepts, and no other key', () => {
    const schema = buildConfigSchema(rules) as {
      additionalProperties: boolean;
      properties: { rules: { properties: Record<string, { enum: string[] }> } } & Record<string, unknown>;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual([
      '$schema',
      'rules',
      'nginxVersion',
      'nginxBuild',
      'keepaliveConnections',
      'pathMap',
      'maxFileSize',
      'contexts',
      'directives',
    ]);
    expect(Object.keys(schema.properties.rules.properties)).toEqual(rules.map((rule) => rule.meta.id));
    for (const property of Object.values(schema.properties.rules.properties)) {
      expect(property.enum).toEqual(['off', 'info', 'warning', 'error']);
    }
  });
});

describe('readConfigFile: only a regular file is read (issue 10, item 3)', () => {
  it('refuses a FIFO and a device instead of blocking or reading forever', () => {
    const root = tempTree({});
    const fifo = path.join(root, 'settings.json');
    execFileSync('mkfifo', [fifo]);
    expect(() => readConfigFile(fifo, known)).toThrow(/settings\.json: cannot read the settings file: not a regular file/);
    expect(() => readConfigFile('/dev/zero', known)).toThrow(/cannot read the settings file: not a regular file/);
  });
});

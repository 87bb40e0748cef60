import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, type CheckOptions } from '../../server/src/cli/args.js';
import { exitStatus } from '../../server/src/cli/exit-status.js';
import { resolveSettings } from '../../server/src/cli/settings.js';
import { ConfigError } from '../../server/src/engine/config-file.js';
import { findingAt, useTempTrees } from './helpers.js';

const tree = useTempTrees();

function options(cwd: string, ...argv: string[]): CheckOptions {
  const command = parseCommandLine(['check', ...argv], { cwd, env: {}, stdoutIsTTY: false });
  if (command.kind !== 'check') throw new Error('expected check');
  return command.options;
}

const CONFIG = JSON.stringify({
  rules: { include: 'off', syntax: 'warning' },
  nginxVersion: '1.22.1',
  keepaliveConnections: 32,
  pathMap: { '/etc/nginx': 'deploy/nginx', '/opt/app': 'app' },
});

describe('resolveSettings', () => {
  it('uses the settings file nearest to the first path, with pathMap relative to it', () => {
    const root = tree({ '.nginx-keepalive.json': CONFIG, 'deploy/site.conf': '' });
    const settings = resolveSettings(options(path.join(root, 'deploy'), 'site.conf'), path.join(root, 'deploy'));
    expect(settings.configFile).toBe(path.join(root, '.nginx-keepalive.json'));
    expect(settings.analyze).toEqual({
      rules: { include: 'off', syntax: 'warning' },
      nginxVersion: '1.22.1',
      keepaliveConnections: 32,
      pathMap: [
        { from: '/etc/nginx', to: path.join(root, 'deploy/nginx') },
        { from: '/opt/app', to: path.join(root, 'app') },
      ],
    });
    expect(settings.notes).toEqual([]);
  });

  it('lets flags win key by key, a --path-map replacing the same prefix', () => {
    const root = tree({ '.nginx-keepalive.json': CONFIG });
    const cli = options(root, '--rule', 'include=error', '--nginx-version', '1.30', '--keepalive-connections', '8', '--path-map', '/etc/nginx=mine');
    const { analyze } = resolveSettings(cli, root);
    expect(analyze.rules).toEqual({ include: 'error', syntax: 'warning' });
    expect(analyze.nginxVersion).toBe('1.30.0');
    expect(analyze.keepaliveConnections).toBe(8);
    expect(analyze.pathMap).toEqual([
      { from: '/etc/nginx', to: path.join(root, 'mine') },
      { from: '/opt/app', to: path.join(root, 'app') },
    ]);
  });

  it('uses --config instead of any nearer file', () => {
    const root = tree({ '.nginx-keepalive.json': CONFIG, 'ci/strict.json': '{"rules": {"include": "error"}}' });
    const settings = resolveSettings(options(root, '--config', 'ci/strict.json'), root);
    expect(settings.configFile).toBe(path.join(root, 'ci/strict.json'));
    expect(settings.analyze.rules).toEqual({ include: 'error' });
  });

  it('notes a later path whose nearest settings file is not the one used', () => {
    const root = tree({ 'a/.nginx-keepalive.json': '{}', 'a/x.conf': '', 'b/.nginx-keepalive.json': '{}', 'b/y.conf': '' });
    const settings = resolveSettings(options(root, 'a/x.conf', 'b/y.conf', 'a'), root);
    expect(settings.configFile).toBe(path.join(root, 'a/.nginx-keepalive.json'));
    expect(settings.notes).toEqual([
      'b/y.conf: its nearest b/.nginx-keepalive.json is not used (one settings file per run: a/.nginx-keepalive.json, found from the first path); check it separately or pass --config',
    ]);
  });

  it('throws the ConfigError of an invalid file, naming it and the key', () => {
    const root = tree({ '.nginx-keepalive.json': '{"rules": {"nope": "off"}}' });
    expect(() => resolveSettings(options(root), root)).toThrow(ConfigError);
    expect(() => resolveSettings(options(root), root)).toThrow(/\.nginx-keepalive\.json: "rules": unknown rule "nope"/);
  });
});

describe('exitStatus', () => {
  const warning = findingAt('/x.conf', 'listen 80;', 'listen');
  const error = findingAt('/x.conf', 'listen 80;', 'listen', { severity: 'error' });
  const info = findingAt('/x.conf', 'listen 80;', 'listen', { severity: 'info' });

  it.each([
    ['clean', [], false, undefined, 0],
    ['info only', [info, info], false, undefined, 0],
    ['a warning, by default', [warning], false, undefined, 1],
    ['warnings within --max-warnings', [warning, warning], false, 2, 0],
    ['warnings beyond --max-warnings', [warning, warning, warning], false, 2, 1],
    ['an error within --max-warnings', [error], false, 5, 1],
    ['--max-warnings 0 and a warning', [warning], false, 0, 1],
    ['a failure wins', [error], true, undefined, 2],
  ] as const)('%s', (_name, findings, failed, maxWarnings, code) => {
    expect(exitStatus([...findings], failed, maxWarnings).code).toBe(code);
  });

  it('says why when --max-warnings is exceeded', () => {
    expect(exitStatus([warning, warning], false, 1).note).toBe('too many warnings (2; --max-warnings is 1)');
  });
});

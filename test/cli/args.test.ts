import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError, type Command } from '../../server/src/cli/args.js';

const environment = { cwd: '/work/repo', env: {}, stdoutIsTTY: false };

function parse(...argv: string[]): Command {
  return parseCommandLine(argv, environment);
}

function checkOptions(...argv: string[]) {
  const command = parse(...argv);
  if (command.kind !== 'check') throw new Error(`expected check, got ${command.kind}`);
  return command.options;
}

describe('parseCommandLine', () => {
  it('defaults to checking the current directory in stylish format', () => {
    expect(checkOptions('check')).toEqual({
      patterns: ['.'],
      format: 'stylish',
      nginxVersion: undefined,
      pathMap: [],
      color: false,
      fix: 'off',
      maxWarnings: undefined,
      rules: {},
      configPath: undefined,
      keepaliveConnections: undefined,
      jobs: 1,
      stdin: false,
      stdinFilename: undefined,
      debug: false,
      context: undefined,
      maxFileBytes: undefined,
      unsafeFixes: false,
      verbose: false,
      statistics: false,
    });
  });

  it('reads every option', () => {
    const options = checkOptions(
      'check', 'a.conf', 'deploy/**/*.conf', '--format', 'json', '--nginx-version', '1.22.1',
      '--path-map', '/etc/nginx/=deploy/nginx', '--path-map', '/opt/x=/abs/y', '--color', '--fix',
      '--max-warnings', '3', '--rule', 'include=off', '--rule', 'syntax=warning', '--rule', 'include=info',
      '--config', 'ci/nk.json', '--keepalive-connections', '32', '--jobs', '3', '--debug', '--context', 'location',
      '--max-file-size', '20M', '--unsafe-fixes', '--verbose',
    );
    expect(options).toEqual({
      patterns: ['a.conf', 'deploy/**/*.conf'],
      format: 'json',
      nginxVersion: '1.22.1',
      pathMap: [
        { from: '/etc/nginx', to: path.resolve('/work/repo', 'deploy/nginx') },
        { from: '/opt/x', to: '/abs/y' },
      ],
      color: true,
      fix: 'write',
      maxWarnings: 3,
      rules: { include: 'info', syntax: 'warning' },
      configPath: path.resolve('/work/repo', 'ci/nk.json'),
      keepaliveConnections: 32,
      jobs: 3,
      stdin: false,
      stdinFilename: undefined,
      debug: true,
      context: 'location',
      maxFileBytes: 20 * 1024 * 1024,
      unsafeFixes: true,
      verbose: true,
      statistics: false,
    });
  });

  it('takes --statistics with the stylish format only, and not with a dry run', () => {
    expect(checkOptions('check', '--statistics').statistics).toBe(true);
    expect(checkOptions('check', '--statistics', '--format', 'stylish', '--fix').statistics).toBe(true);
    expect(() => parse('check', '--statistics', '--format', 'json')).toThrow(/--statistics only applies to the stylish format, not json/);
    expect(() => parse('check', '--statistics', '--fix-dry-run')).toThrow(/--statistics does not apply to --fix-dry-run/);
  });

  it('reads prove with its own options and the check options it shares', () => {
    const command = parse('prove', 'sites', '--requests', '50', '--concurrency=4', '--nginx', 'bin/nginx', '--timeout', '9',
      '--format', 'json', '--unsafe-fixes', '--path-map', '/etc/nginx=deploy', '--rule', 'include=off');
    if (command.kind !== 'prove') throw new Error(`expected prove, got ${command.kind}`);
    expect(command.options).toMatchObject({ format: 'json', requests: 50, concurrency: 4, nginx: '/work/repo/bin/nginx', timeoutMs: 9000 });
    expect(command.options.check).toMatchObject({
      patterns: ['sites'],
      unsafeFixes: true,
      pathMap: [{ from: '/etc/nginx', to: '/work/repo/deploy' }],
      rules: { include: 'off' },
    });
    const defaults = parse('prove');
    if (defaults.kind !== 'prove') throw new Error('expected prove');
    expect(defaults.options).toMatchObject({ format: 'table', requests: 200, concurrency: 8, nginx: undefined, timeoutMs: 120_000 });
    expect(defaults.options.check.patterns).toEqual(['.']);
  });

  it('recognises rules and rule <id>, with only the options they use', () => {
    expect(parse('rules')).toEqual({ kind: 'rules' });
    expect(parse('rule', 'upstream-keepalive')).toEqual({ kind: 'rule', id: 'upstream-keepalive' });
    expect(parse('rule', 'no-such-rule', '--no-color')).toEqual({ kind: 'rule', id: 'no-such-rule' });
    expect(() => parse('rule')).toThrow(/"rule" takes one rule id/);
    expect(() => parse('rule', 'a', 'b')).toThrow(/"rule" takes one rule id/);
    expect(() => parse('rules', 'syntax')).toThrow(/"rules" takes no arguments \(for one rule's page: rule syntax\)/);
    expect(() => parse('rules', '--fix')).toThrow(/--fix does not apply to the "rules" command/);
  });

  it('takes --fix-dry-run, the CI formats, and --max-warnings 0', () => {
    expect(checkOptions('check', '--fix-dry-run').fix).toBe('dry-run');
    expect(checkOptions('check', '-f', 'sarif').format).toBe('sarif');
    expect(checkOptions('check', '--format=github').format).toBe('github');
    expect(checkOptions('check', '-f', 'gitlab').format).toBe('gitlab');
    expect(checkOptions('check', '--format', 'rdjson').format).toBe('rdjson');
    expect(checkOptions('check', '--max-warnings', '0').maxWarnings).toBe(0);
    expect(checkOptions('check', '-c', '/abs/x.json').configPath).toBe('/abs/x.json');
  });

  it('reads - (stdin) and --stdin-filename, resolved against the working directory', () => {
    expect(checkOptions('check', '-')).toMatchObject({ patterns: ['-'], stdin: true, stdinFilename: undefined });
    expect(checkOptions('check', '-', '--stdin-filename', 'sites/app.conf')).toMatchObject({
      stdin: true,
      stdinFilename: path.resolve('/work/repo', 'sites/app.conf'),
    });
  });

  it('completes a two-part nginx version', () => {
    expect(checkOptions('check', '--nginx-version', '1.29').nginxVersion).toBe('1.29.0');
  });

  it('recognises help, version and lsp', () => {
    expect(parse('--help')).toEqual({ kind: 'help' });
    expect(parse('check', '-h')).toEqual({ kind: 'help' });
    expect(parse('--version')).toEqual({ kind: 'version' });
    expect(parse('lsp', '--stdio')).toEqual({ kind: 'lsp' });
  });

  it.each([
    [[], /missing command/],
    [['lint'], /unknown command "lint" \(expected "check", "prove", "format", "rules" or "rule <id>"\)/],
    [['prove', '--fix'], /--fix does not apply to the "prove" command/],
    [['prove', '--format', 'sarif'], /unknown format "sarif" for prove \(expected table or json\)/],
    [['prove', '--requests', '0'], /invalid --requests "0" \(expected an integer from 1 to 100000\)/],
    [['prove', '--concurrency', 'many'], /invalid --concurrency "many"/],
    [['prove', '--timeout', '0'], /invalid --timeout "0"/],
    [['prove', '-', 'a.conf'], /"-" \(stdin\) cannot be combined with other paths/],
    [['check', '--requests', '5'], /--requests only applies to the "prove" command/],
    [['check', '--bogus'], /unknown option '--bogus'$/],
    [['check', '--format', 'xml'], /unknown format "xml" \(expected one of: stylish, json, sarif, github, gitlab, rdjson\)/],
    [['check', '--fix', '--fix-dry-run'], /--fix and --fix-dry-run cannot be combined/],
    [['check', '--fix-dry-run', '--format', 'json'], /--fix-dry-run prints a unified diff; --format does not apply/],
    [['check', '--max-warnings', 'many'], /invalid --max-warnings "many" \(expected an integer >= 0\)/],
    [['check', '--max-warnings=-1'], /invalid --max-warnings "-1"/],
    [['check', '--max-warnings', '2.5'], /invalid --max-warnings "2.5"/],
    [['check', '--keepalive-connections', '0'], /invalid --keepalive-connections "0" \(expected an integer from 1 to 10000\)/],
    [['check', '--keepalive-connections', '10001'], /invalid --keepalive-connections "10001"/],
    [['check', '--rule', 'include'], /invalid --rule "include" \(expected RULE=off\|info\|warning\|error/],
    [['check', '--rule', 'include=warn'], /invalid --rule "include=warn"/],
    [['check', '--rule', 'no-such-rule=off'], /unknown rule "no-such-rule" in --rule "no-such-rule=off"/],
    [['check', '--config', ''], /--config needs a file path/],
    [['check', '--format'], /argument missing/],
    [['check', '--nginx-version', 'latest'], /invalid --nginx-version "latest"/],
    [['check', '--path-map', '/etc/nginx'], /invalid --path-map "\/etc\/nginx" \(expected FROM=TO/],
    [['check', '--path-map', '=x'], /invalid --path-map/],
    [['check', '--stdio'], /--stdio only applies/],
    [['check', '-', 'a.conf'], /"-" \(stdin\) cannot be combined with other paths/],
    [['check', 'a.conf', '--stdin-filename', 'x.conf'], /--stdin-filename only applies to "check -"/],
    [['check', '-', '--stdin-filename', ''], /--stdin-filename needs a file path/],
  ])('rejects %j with a one-line usage error', (argv, message) => {
    let thrown: unknown;
    try {
      parse(...argv);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('\n');
  });
});

describe('color', () => {
  const colorOf = (argv: string[], env: Record<string, string>, stdoutIsTTY: boolean) => {
    const command = parseCommandLine(['check', ...argv], { cwd: '/', env, stdoutIsTTY });
    return command.kind === 'check' && command.options.color;
  };

  it('is on for a terminal and off for a pipe', () => {
    expect(colorOf([], {}, true)).toBe(true);
    expect(colorOf([], {}, false)).toBe(false);
  });

  it('respects NO_COLOR and FORCE_COLOR, FORCE_COLOR winning', () => {
    expect(colorOf([], { NO_COLOR: '1' }, true)).toBe(false);
    expect(colorOf([], { NO_COLOR: '' }, true)).toBe(true);
    expect(colorOf([], { FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorOf([], { FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorOf([], { FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
  });

  it('lets the flags override the environment', () => {
    expect(colorOf(['--no-color'], { FORCE_COLOR: '1' }, true)).toBe(false);
    expect(colorOf(['--color'], { NO_COLOR: '1' }, false)).toBe(true);
  });
});

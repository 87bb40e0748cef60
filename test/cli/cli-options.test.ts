// End to end: the built dist/cli.js on real files, for the options beyond plain checking. The fixable finding here is
// an unused suppression (a registered rule whose fix removes it); the keepalive rules' fixes are in fix-e2e.test.ts.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useTempTrees } from './helpers.js';

/** Two include warnings (lines 2 and 3). */
const TWO_WARNINGS = 'events {}\ninclude missing-a.conf;\ninclude missing-b.conf;\n';
/** Valid; its only finding is the unused suppression on line 2, which --fix removes. */
const STALE_SUPPRESSION = 'events {}\n# nginx-keepalive-ignore include: was needed once\nhttp {}\n';
const STALE_FIXED = 'events {}\nhttp {}\n';

const tree = useTempTrees();

describe('--rule and --max-warnings', () => {
  it('turns a rule off or changes its severity', () => {
    const root = tree({ 'nginx.conf': TWO_WARNINGS });
    expect(runCli(root, ['check', '--rule', 'include=off'])).toEqual({ status: 0, stdout: '', stderr: '' });
    const info = runCli(root, ['check', '--rule', 'include=info']);
    expect(info.status).toBe(0);
    expect(info.stdout).toContain('(0 errors, 0 warnings, 2 info)');
    expect(runCli(root, ['check', '--rule', 'include=error']).stdout).toContain('(2 errors, 0 warnings, 0 info)');
  });

  it('rejects an unknown rule id with exit 2', () => {
    const result = runCli(tree({ 'nginx.conf': TWO_WARNINGS }), ['check', '--rule', 'upstream-keepalve=off']);
    expect(result).toMatchObject({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(/^nginx-keepalive: unknown rule "upstream-keepalve" in --rule/);
  });

  it('fails on warnings only beyond --max-warnings, saying so', () => {
    const root = tree({ 'nginx.conf': TWO_WARNINGS });
    expect(runCli(root, ['check']).status).toBe(1);
    expect(runCli(root, ['check', '--max-warnings', '2'])).toMatchObject({ status: 0, stderr: '' });
    const over = runCli(root, ['check', '--max-warnings', '1']);
    expect(over.status).toBe(1);
    expect(over.stderr).toBe('nginx-keepalive: too many warnings (2; --max-warnings is 1)\n');
  });

  it('still fails on an error within --max-warnings', () => {
    const root = tree({ 'nginx.conf': 'server { listen 80 }\n' });
    expect(runCli(root, ['check', '--max-warnings', '10']).status).toBe(1);
  });
});

describe('--format sarif and github', () => {
  it('prints a SARIF log with relative URIs and the fix', () => {
    const root = tree({ 'conf/nginx.conf': STALE_SUPPRESSION });
    const result = runCli(root, ['check', '--format', 'sarif']);
    expect(result.status).toBe(1);
    const log = JSON.parse(result.stdout);
    const [run] = log.runs;
    expect(run.results).toHaveLength(1);
    const [finding] = run.results;
    expect(run.tool.driver.rules[finding.ruleIndex].id).toBe('unused-suppression');
    expect(finding.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'conf/nginx.conf', uriBaseId: '%SRCROOT%' },
      region: { startLine: 2, startColumn: 26, endLine: 2, endColumn: 33 },
    });
    const offset = 'events {}\n'.length;
    expect(finding.fixes[0].artifactChanges[0].replacements).toEqual([
      { deletedRegion: { charOffset: offset, charLength: STALE_SUPPRESSION.length - STALE_FIXED.length }, insertedContent: { text: '' } },
    ]);
  });

  it('prints GitHub annotations', () => {
    const root = tree({ 'nginx.conf': TWO_WARNINGS });
    const result = runCli(root, ['check', '-f', 'github']);
    expect(result.status).toBe(1);
    expect(result.stdout.split('\n')[0]).toMatch(/^::warning file=nginx\.conf,line=2,col=9,endLine=2,endColumn=23,title=include::/);
  });
});

describe('.nginx-keepalive.json', () => {
  it('is found above the checked path and applied; flags override it', () => {
    const root = tree({ '.nginx-keepalive.json': '{"rules": {"include": "off"}}', 'deploy/nginx.conf': TWO_WARNINGS });
    expect(runCli(path.join(root, 'deploy'), ['check'])).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(runCli(root, ['check', 'deploy/nginx.conf']).status).toBe(0);
    expect(runCli(root, ['check', 'deploy', '--rule', 'include=warning']).status).toBe(1);
  });

  it('maps includes through its pathMap, relative to the file', () => {
    // The target must lie in the checked paths (test/robustness/settings-trust.test.ts); `.inc` keeps the walk from
    // picking the included file itself, so its finding shows the include was followed.
    const root = tree({
      'repo/.nginx-keepalive.json': '{"pathMap": {"/etc/nginx": "root/deploy"}}',
      'repo/root/nginx.conf': 'events {}\nhttp {\n  include /etc/nginx/conf.d/*.inc;\n}\n',
      'repo/root/deploy/conf.d/site.inc': 'server { listen 80 }\n',
    });
    const result = runCli(root, ['check', 'repo/root']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('repo/root/deploy/conf.d/site.inc\n  1:20  error');
  });

  it('stops the run with exit 2 when invalid, naming the file and the key', () => {
    const root = tree({ '.nginx-keepalive.json': '{"rulez": {}}', 'nginx.conf': TWO_WARNINGS });
    expect(runCli(root, ['check'])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'nginx-keepalive: .nginx-keepalive.json: unknown key "rulez" (expected one of: rules, nginxVersion, nginxBuild, keepaliveConnections, pathMap, maxFileSize, contexts, directives)\n',
    });
    writeFileSync(path.join(root, '.nginx-keepalive.json'), '{"keepaliveConnections": 99999}');
    expect(runCli(root, ['check']).stderr).toMatch(/"keepaliveConnections": expected an integer from 1 to 10000, got 99999/);
    writeFileSync(path.join(root, '.nginx-keepalive.json'), '{ nope');
    expect(runCli(root, ['check']).stderr).toMatch(/^nginx-keepalive: \.nginx-keepalive\.json: invalid JSON: /);
  });

  it('--config names the file to use; a missing one is exit 2', () => {
    const root = tree({ 'ci.json': '{"rules": {"include": "info"}}', 'nginx.conf': TWO_WARNINGS });
    expect(runCli(root, ['check', '--config', 'ci.json']).status).toBe(0);
    const missing = runCli(root, ['check', '--config', 'nope.json']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('nginx-keepalive: nope.json: cannot read the settings file: no such file\n');
  });
});

describe('suppression comments', () => {
  it('silence the next line and the whole file', () => {
    const root = tree({
      'a.conf': 'events {}\n# nginx-keepalive-ignore include: only on the server\ninclude missing.conf;\n',
      'b.conf': '# nginx-keepalive-ignore-file include\nevents {}\ninclude x.conf;\ninclude y.conf;\n',
    });
    expect(runCli(root, ['check'])).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('report an unused suppression and an unknown rule id', () => {
    const root = tree({ 'nginx.conf': `${STALE_SUPPRESSION}# nginx-keepalive-ignore-file upstream-keepalve\n` });
    const result = runCli(root, ['check']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('2:26  warning  [*] unused suppression: no "include" finding on line 3');
    expect(result.stdout).toContain('4:31  warning  unknown rule "upstream-keepalve" in suppression');
  });
});

describe('--fix-dry-run', () => {
  it('prints a unified diff, writes nothing, and exits as --fix would', () => {
    const root = tree({ 'conf/nginx.conf': STALE_SUPPRESSION });
    const file = path.join(root, 'conf/nginx.conf');
    const before = statSync(file);
    const result = runCli(root, ['check', '--fix-dry-run']);
    expect(result.stdout).toBe(
      [
        '--- a/conf/nginx.conf',
        '+++ b/conf/nginx.conf',
        '@@ -1,3 +1,2 @@',
        ' events {}',
        '-# nginx-keepalive-ignore include: was needed once',
        ' http {}',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe(
      'nginx-keepalive: --fix-dry-run: 1 file would change, nothing written; 0 problems would remain (0 errors, 0 warnings, 0 info)\n',
    );
    expect(result.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(STALE_SUPPRESSION);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
  });

  it('prints nothing on stdout when there is nothing to fix', () => {
    const result = runCli(tree({ 'nginx.conf': TWO_WARNINGS }), ['check', '--fix-dry-run']);
    expect(result.stdout).toBe('');
    expect(result.status).toBe(1);
  });
});

describe('--fix', () => {
  it('rewrites the file atomically (new inode, same mode) and reports what remains', () => {
    const root = tree({ 'nginx.conf': `${STALE_SUPPRESSION}include missing.conf;\n`, 'clean.conf': 'events {}\n' });
    const file = path.join(root, 'nginx.conf');
    chmodSync(file, 0o604);
    const before = statSync(file);
    const cleanBefore = statSync(path.join(root, 'clean.conf'));
    const result = runCli(root, ['check', '--fix']);
    expect(readFileSync(file, 'utf8')).toBe(`${STALE_FIXED}include missing.conf;\n`);
    const after = statSync(file);
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o7777).toBe(0o604);
    expect(statSync(path.join(root, 'clean.conf')).ino).toBe(cleanBefore.ino);
    // The remaining finding is reported against the fixed text: line 3 now, not 4.
    expect(result.stdout).toContain('nginx.conf\n  3:9  warning');
    expect(result.stdout).toContain('3 | include missing.conf;');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
  });

  it('exits 0 when everything was fixed, and a second run changes nothing', () => {
    const root = tree({ 'nginx.conf': STALE_SUPPRESSION });
    expect(runCli(root, ['check', '--fix'])).toEqual({ status: 0, stdout: '', stderr: '' });
    const inode = statSync(path.join(root, 'nginx.conf')).ino;
    expect(runCli(root, ['check', '--fix'])).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(statSync(path.join(root, 'nginx.conf')).ino).toBe(inode);
  });

  it('leaves an included file outside the checked paths alone, and says so', () => {
    const root = tree({
      'root/nginx.conf': 'events {}\nhttp {\n  include /etc/nginx/conf.d/*.conf;\n}\n',
      'deploy/nginx/conf.d/site.conf': `# nginx-keepalive-ignore include\nserver {}\n`,
    });
    const site = path.join(root, 'deploy/nginx/conf.d/site.conf');
    const result = runCli(root, ['check', 'root', '--fix', '--path-map', '/etc/nginx=deploy/nginx']);
    expect(readFileSync(site, 'utf8')).toBe('# nginx-keepalive-ignore include\nserver {}\n');
    expect(result.stderr).toBe(
      'nginx-keepalive: deploy/nginx/conf.d/site.conf: outside the checked paths, its fixes are not applied (check it, or its directory, to fix it)\n',
    );
    expect(result.stdout).toContain('deploy/nginx/conf.d/site.conf\n  1:26  warning  [*] unused suppression');
    // A fix not written fails the run, whatever the reason (docs/security.md, Guarantees).
    expect(result.status).toBe(2);
  });

  it('fixes nothing in a file with a syntax error', () => {
    const text = `${STALE_SUPPRESSION}server { listen 80 }\n`;
    const root = tree({ 'nginx.conf': text });
    const result = runCli(root, ['check', '--fix']);
    expect(readFileSync(path.join(root, 'nginx.conf'), 'utf8')).toBe(text);
    expect(result.status).toBe(1);
    // The syntax error, and `server` in the main context, which nginx reports first (it reads `server {` before `}`).
    expect(result.stdout).toContain('(2 errors, 1 warning, 0 info)');
    expect(result.stdout).toContain('"server" directive is not allowed in main');
  });
});

// .pre-commit-hooks.yaml: each hook parses, names a command the package installs, and, run as pre-commit runs it
// (the entry followed by the staged files that match `files`), does what its name says.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useTempTrees } from '../cli/helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
// js-yaml is in node_modules through @vscode/vsce (not a direct devDependency), and ships no types.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
}

const hooks = yaml.load(readFileSync(path.join(repoRoot, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const hook = (id: string) => hooks.find((candidate) => candidate.id === id)!;
const tree = useTempTrees();

/** The hook's entry with pre-commit's file arguments; the installed bin is this checkout's dist/cli.js. */
function runHook(id: string, root: string, files: string[]) {
  const [command, ...args] = hook(id).entry.split(' ');
  expect(manifest.bin[command!]).toBe('dist/cli.js');
  return runCli(root, [...args, ...files.filter((file) => new RegExp(hook(id).files).test(file))]);
}

describe('.pre-commit-hooks.yaml', () => {
  it('defines the check and format hooks, node hooks of the package\'s command', () => {
    expect(hooks.map((h) => h.id)).toEqual(['nginx-keepalive', 'nginx-keepalive-format']);
    for (const h of hooks) {
      expect(h).toMatchObject({ language: 'node', name: expect.any(String) });
      expect(h.entry.split(' ')[0]).toBe('nginx-keepalive');
    }
  });

  it('selects nginx files by name, not other files', () => {
    const files = new RegExp(hook('nginx-keepalive').files);
    for (const name of ['nginx.conf', 'deploy/nginx.conf.sigil', 'sites/app.conf', 'x.nginx', 'nginx.tmpl']) expect(files.test(name), name).toBe(true);
    for (const name of ['README.md', 'nginx.conf/readme.md', 'package.json']) expect(files.test(name), name).toBe(false);
  });

  it('check fails on a finding and passes a clean file', () => {
    const root = tree({ 'site.conf': 'upstream app {\n  server 127.0.0.1:3000;\n}\n', 'ok.conf': 'events {}\nhttp {}\n', 'README.md': '# x\n' });
    const failing = runHook('nginx-keepalive', root, ['site.conf', 'README.md']);
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain('upstream-keepalive');
    expect(runHook('nginx-keepalive', root, ['ok.conf', 'README.md']).status).toBe(0);
  });

  it('format rewrites the staged file in place (pre-commit then fails the commit on the change)', () => {
    const root = tree({ 'site.conf': 'server {\nlisten   80 ;\n}\n' });
    expect(runHook('nginx-keepalive-format', root, ['site.conf']).status).toBe(0);
    expect(readFileSync(path.join(root, 'site.conf'), 'utf8')).toBe('server {\n    listen 80;\n}\n');
  });
});

import { readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverFiles } from '../../server/src/cli/discover.js';
import { readDocuments } from '../../server/src/cli/read-documents.js';
import { looksLikeNginx } from '../../server/src/engine/nginx-files.js';
import { useTempTrees } from './helpers.js';

const NGINX = 'server {\n  listen 80;\n}\n';
const COMPOSE = '---\nservices:\n  app:\n    image: "{{ $.IMAGE }}"\n    ports:\n      - "80:80"\n';

const tree = useTempTrees();

function relativeFiles(root: string, files: string[]): string[] {
  return files.map((file) => path.relative(root, file));
}

describe('discoverFiles: directories', () => {
  it('picks nginx files by name, sniffs templates, skips VCS and node_modules', () => {
    const root = tree({
      'nginx.conf.sigil': NGINX,
      'compose.yml.sigil': COMPOSE,
      'deploy/site.conf': NGINX,
      'deploy/app.nginx': NGINX,
      'deploy/nginx.conf.default': NGINX,
      'deploy/vhost.tmpl': '{{ range $x := . }}\nupstream {{ $x }} { server 127.0.0.1; }\n{{ end }}\n',
      'deploy/template.yaml.tmpl': 'Resources:\n  Fn: {{ $.APP }}\n',
      'deploy/README.md': 'server { listen 80; }',
      '.platform/nginx/conf.d/proxy.conf': NGINX,
      '.git/config.conf': NGINX,
      'node_modules/pkg/nginx.conf': NGINX,
      'a/node_modules/b/x.conf': NGINX,
    });
    const found = discoverFiles(['.'], root);
    expect(found.errors).toEqual([]);
    expect(relativeFiles(root, found.files)).toEqual([
      '.platform/nginx/conf.d/proxy.conf',
      'deploy/app.nginx',
      'deploy/nginx.conf.default',
      'deploy/site.conf',
      'deploy/vhost.tmpl',
      'nginx.conf.sigil',
    ]);
  });

  it('returns absolute paths in a stable order whatever the argument order', () => {
    const root = tree({ 'b.conf': NGINX, 'a/z.conf': NGINX, 'A.conf': NGINX });
    const forwards = discoverFiles(['b.conf', 'a', 'A.conf'], root);
    const backwards = discoverFiles(['A.conf', 'a', 'b.conf'], root);
    expect(forwards.files).toEqual(backwards.files);
    expect(relativeFiles(root, forwards.files)).toEqual(['A.conf', 'a/z.conf', 'b.conf']);
    expect(forwards.files.every((file) => path.isAbsolute(file))).toBe(true);
  });

  it('reports a directory without nginx files as an error (exit 2), as ESLint does an unmatched pattern', () => {
    const root = tree({ 'docs/readme.md': 'hello' });
    const found = discoverFiles(['docs'], root);
    expect(found).toMatchObject({
      files: [],
      errors: ['docs: no nginx files found (1 file skipped; --debug says why)'],
      notes: [],
      readRoots: [path.join(root, 'docs')],
    });
  });

  it('names what was asked for as read roots: a directory, a file\'s directory, a glob\'s literal prefix', () => {
    const root = tree({ 'etc/nginx/nginx.conf': NGINX, 'deploy/x/a.conf': NGINX, 'site/b.conf': NGINX });
    const found = discoverFiles(['etc/nginx/nginx.conf', 'deploy/*/a.conf', 'site', 'missing.conf'], root);
    expect(found.readRoots).toEqual(['deploy', 'etc/nginx', 'site'].map((dir) => path.join(root, dir)));
  });

  it('follows symbolic links once: a linked file reached twice is checked once', () => {
    const root = tree({ 'sites-available/app': NGINX, 'sites-enabled/.keep': '' });
    symlinkSync(path.join(root, 'sites-available/app'), path.join(root, 'sites-enabled/app.conf'));
    symlinkSync(root, path.join(root, 'sites-enabled/loop'));
    const found = discoverFiles(['sites-enabled', 'sites-available/app'], root);
    expect(found.errors).toEqual([]);
    expect(relativeFiles(root, found.files)).toEqual(['sites-available/app']);
  });

  it('gives each file found its real path, which the documents carry to the analysis', () => {
    const real = tree({ 'conf.d/app.conf': NGINX });
    const root = tree({});
    // The checked directory is itself reached through a link: every file's real path lies under its target.
    symlinkSync(path.join(real, 'conf.d'), path.join(root, 'linked'));
    const found = discoverFiles(['linked'], root);
    const file = path.join(root, 'linked/app.conf');
    expect(found.files).toEqual([file]);
    expect([...(found.realPaths ?? [])]).toEqual([[file, path.join(realpathSync(real), 'conf.d/app.conf')]]);
    const read = readDocuments(found.files, root, { alreadyRead: found.alreadyRead, realPaths: found.realPaths });
    expect(read.documents.map((document) => [document.path, document.realPath])).toEqual([...(found.realPaths ?? [])]);
  });
});

describe('discoverFiles: files, globs and missing paths', () => {
  it('checks a named file whatever its name', () => {
    const root = tree({ 'conf/default': NGINX, 'compose.yml.sigil': COMPOSE });
    const found = discoverFiles(['conf/default', 'compose.yml.sigil'], root);
    expect(relativeFiles(root, found.files)).toEqual(['compose.yml.sigil', 'conf/default']);
  });

  it('expands quoted globs, with ** spanning directories', () => {
    const root = tree({
      'deploy/a.conf': NGINX,
      'deploy/x/y/b.conf': NGINX,
      'deploy/x/notes.txt': 'x',
      'deploy/node_modules/c.conf': NGINX,
      'other/d.conf': NGINX,
    });
    expect(relativeFiles(root, discoverFiles(['deploy/**/*.conf'], root).files)).toEqual([
      'deploy/a.conf',
      'deploy/x/y/b.conf',
    ]);
    expect(relativeFiles(root, discoverFiles(['deploy/*.conf'], root).files)).toEqual(['deploy/a.conf']);
    expect(relativeFiles(root, discoverFiles(['*/x/*.txt'], root).files)).toEqual(['deploy/x/notes.txt']);
    expect(relativeFiles(root, discoverFiles([path.join(root, 'other/*.conf')], '/').files)).toEqual(['other/d.conf']);
  });

  it('reports a missing path or an empty glob as an error and still returns the others', () => {
    const root = tree({ 'a.conf': NGINX });
    const found = discoverFiles(['missing.conf', 'a.conf', 'deploy/**/*.conf', 'nope/'], root);
    expect(relativeFiles(root, found.files)).toEqual(['a.conf']);
    expect(found.errors).toEqual([
      'missing.conf: no such file or directory',
      'deploy/**/*.conf: no files match',
      'nope/: no such file or directory',
    ]);
  });

  it('prefers an existing file over glob expansion when its name contains glob characters', () => {
    const root = tree({ '[x].conf': NGINX, 'x.conf': NGINX });
    expect(relativeFiles(root, discoverFiles(['[x].conf'], root).files)).toEqual(['[x].conf']);
  });
});

describe('looksLikeNginx on the real corpus', () => {
  const corpus = path.resolve(import.meta.dirname, '../corpus');
  const isTemplate = (name: string) => name.endsWith('.sigil') || name.endsWith('.tmpl');
  const read = (dir: string, include: (name: string) => boolean = isTemplate) =>
    readdirSync(path.join(corpus, dir))
      .filter(include)
      .map((name) => ({ name, text: readFileSync(path.join(corpus, dir, name), 'utf8') }));

  // Corpus names are `owner__repo__path`; a file really named nginx.conf* is picked by name and never sniffed
  // (dokku v0.5.0's nginx.conf.sigil is nothing but `{{ include }}` actions).
  const isSniffed = (name: string) => !(name.split('__').pop() ?? '').startsWith('nginx.conf');

  it('accepts every sniffed nginx .sigil and Go .tmpl template', () => {
    const templates = [...read('sigil'), ...read('templated')].filter(({ name }) => isSniffed(name));
    expect(templates.length).toBeGreaterThan(20);
    expect(templates.filter(({ text }) => !looksLikeNginx(text)).map(({ name }) => name)).toEqual([]);
  });

  it('accepts every plain nginx config and snippet, so the sniff is not tuned to the templates alone', () => {
    const configs = read('nginx', () => true);
    expect(configs.length).toBeGreaterThan(300);
    expect(configs.filter(({ text }) => !looksLikeNginx(text)).map(({ name }) => name)).toEqual([]);
  });

  it("rejects Dokku's non-nginx sigils (compose, yaml, toml)", () => {
    const others = read('sigil_other');
    expect(others.length).toBeGreaterThanOrEqual(6);
    expect(others.filter(({ text }) => looksLikeNginx(text)).map(({ name }) => name)).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFsHost } from '../../server/src/util/fs-host.js';
import type { GlobConfinement, PathMapping, SourceDocument } from '../../server/src/util/types.js';
import type { IncludeLimits } from '../../server/src/model/expand.js';
import type { Directive } from '../../server/src/model/types.js';
import { buildWorkspace, walkEffective, type EffectiveScope, type Workspace } from '../../server/src/model/workspace.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { createVirtualHost } from '../../server/src/model/virtual-host.js';
import { tempTree } from './support.js';

function docsFrom(root: string, ...relative: string[]): SourceDocument[] {
  return relative.map((r) => ({ path: path.join(root, r), text: readFileSync(path.join(root, r), 'utf8') }));
}

async function workspaceOf(
  docs: SourceDocument[],
  options: { pathMap?: PathMapping[]; limits?: IncludeLimits; readRoots?: string[] } = {},
): Promise<Workspace> {
  return buildWorkspace(docs, createFsHost(), await loadNginxParser(), options);
}

interface Visit {
  name: string;
  file: string;
  scope: EffectiveScope;
}

function visits(workspace: Workspace): Visit[] {
  const seen: Visit[] = [];
  walkEffective(workspace, (directive: Directive, scope) => {
    seen.push({ name: directive.name, file: path.basename(directive.file.path), scope });
  });
  return seen;
}

const MAIN = 'events {}\n';

describe('include resolution', () => {
  it('resolves relative paths against the main config directory, not the including file', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include conf.d/*.conf; }\n`,
      'conf.d/site.conf': 'server { include snippets/proxy.conf; }\n',
      'snippets/proxy.conf': 'proxy_http_version 1.1;\n',
      'conf.d/snippets/proxy.conf': 'wrong_file 1;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'));
    expect(workspace.includeProblems).toEqual([]);
    expect(visits(workspace).map((v) => v.name)).toContain('proxy_http_version');
    expect(visits(workspace).map((v) => v.name)).not.toContain('wrong_file');
  });

  it('follows an include whose name is written in quotes, and records no edge for a file without one', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { "include" 'conf.d/site.conf'; }\n`,
      'conf.d/site.conf': 'server { listen 80; }\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf', 'conf.d/site.conf'));
    expect(workspace.includeProblems).toEqual([]);
    expect(workspace.roots.map((r) => path.basename(r.file.path))).toEqual(['nginx.conf']);
    expect(visits(workspace).map((v) => v.name)).toContain('listen');
    expect([...workspace.includes.values()].map((files) => files.map((f) => path.basename(f.path)))).toEqual([['site.conf']]);
  });

  it('expands globs in byte order and skips dot files', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include conf.d/*.conf; }\n`,
      'conf.d/b.conf': 'from_b 1;\n',
      'conf.d/a.conf': 'from_a 1;\n',
      'conf.d/B.conf': 'from_upper_b 1;\n',
      'conf.d/_.conf': 'from_underscore 1;\n',
      'conf.d/.hidden.conf': 'from_hidden 1;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'));
    const names = visits(workspace)
      .map((v) => v.name)
      .filter((n) => n.startsWith('from_'));
    expect(names).toEqual(['from_upper_b', 'from_underscore', 'from_a', 'from_b']);
  });

  it('accepts a glob that matches nothing but reports a missing literal path at its argument', async () => {
    const text = `${MAIN}http { include none/*.conf; include missing.conf; include mime.types; }\n`;
    const root = tempTree({ 'nginx.conf': text });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'));
    expect(workspace.includeProblems).toHaveLength(1);
    const [problem] = workspace.includeProblems;
    expect(problem!.kind).toBe('missing');
    expect(text.slice(problem!.span.startOffset, problem!.span.endOffset)).toBe('missing.conf');
    expect(problem!.file.path).toBe(path.join(root, 'nginx.conf'));
  });

  it('skips templated and $-variable paths silently', async () => {
    const root = tempTree({
      'nginx.conf.sigil': 'include {{ $.DOKKU_ROOT }}/{{ $.APP }}/nginx.conf.d/*.conf;\ninclude $dir/x.conf;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf.sigil'));
    expect(workspace.includeProblems).toEqual([]);
    expect(workspace.files).toHaveLength(1);
  });

  it('maps absolute paths with the longest matching prefix', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include /etc/nginx/sites/app.conf; }\n`,
      'deploy/sites/app.conf': 'from_deploy 1;\n',
      'special/app.conf': 'from_special 1;\n',
    });
    const pathMap = [
      { from: '/etc/nginx', to: path.join(root, 'deploy') },
      { from: '/etc/nginx/sites/', to: path.join(root, 'special') },
    ];
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), { pathMap });
    expect(workspace.includeProblems).toEqual([]);
    expect(visits(workspace).map((v) => v.name)).toContain('from_special');
  });

  it('reports a mapped absolute path that does not exist, except files nginx ships', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include /etc/nginx/x.conf; include /etc/nginx/fastcgi_params; }\n`,
      'deploy/.keep': '',
    });
    const pathMap = [{ from: '/etc/nginx', to: path.join(root, 'deploy') }];
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), { pathMap });
    expect(workspace.includeProblems.map((p) => [p.kind, p.message, p.detail])).toEqual([
      ['missing', 'include file "/etc/nginx/x.conf" not found: fix the path or use --path-map', `It is mapped to ${path.join(root, 'deploy/x.conf')}.`],
    ]);
  });

  it('falls back to ancestor directories inside the read roots for a site file checked alone', async () => {
    const root = tempTree({
      'sites-enabled/app': 'server { include snippets/ssl.conf; }\n',
      'snippets/ssl.conf': 'ssl_protocols TLSv1.3;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'sites-enabled/app'), { readRoots: [root] });
    expect(workspace.includeProblems).toEqual([]);
    expect(visits(workspace).map((v) => v.name)).toContain('ssl_protocols');
  });

  it('does not fall back for a main config', async () => {
    const root = tempTree({
      'etc/nginx.conf': `${MAIN}http { include snippets/ssl.conf; }\n`,
      'snippets/ssl.conf': 'ssl_protocols TLSv1.3;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'etc/nginx.conf'));
    expect(workspace.includeProblems.map((p) => p.kind)).toEqual(['missing']);
  });
});

describe('include cycles and limits', () => {
  it('reports a cycle once, at the include that closes it, and stops', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include a.conf; }\n`,
      'a.conf': 'include b.conf;\n',
      'b.conf': 'include a.conf;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'));
    expect(workspace.includeProblems).toHaveLength(1);
    expect(workspace.includeProblems[0]).toMatchObject({ kind: 'cycle' });
    expect(path.basename(workspace.includeProblems[0]!.file.path)).toBe('b.conf');
    expect(visits(workspace).map((v) => v.file)).toEqual(['nginx.conf', 'nginx.conf', 'nginx.conf', 'a.conf', 'b.conf']);
  });

  it('reports a file that includes itself, also through a glob', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include conf.d/*.conf; }\n`,
      'conf.d/self.conf': 'include conf.d/*.conf;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'));
    expect(workspace.includeProblems.map((p) => [p.kind, path.basename(p.file.path)])).toEqual([['cycle', 'self.conf']]);
  });

  it('stops at the include limits and says so once', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include a.conf; include a.conf; include a.conf; include a.conf; }\n`,
      'a.conf': 'gzip on;\n',
    });
    const limits = { maxIncludedFiles: 2, maxDepth: 10 };
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), { limits });
    expect(workspace.includeProblems.map((p) => p.kind)).toEqual(['limit']);
    expect(visits(workspace).filter((v) => v.name === 'gzip')).toHaveLength(2);
  });

  it('bounds the include depth', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}include 1.conf;\n`,
      '1.conf': 'include 2.conf;\n',
      '2.conf': 'include 3.conf;\n',
      '3.conf': 'deepest 1;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), { limits: { maxIncludedFiles: 100, maxDepth: 2 } });
    expect(workspace.includeProblems.map((p) => [p.kind, path.basename(p.file.path)])).toEqual([['limit', '2.conf']]);
    expect(visits(workspace).map((v) => v.name)).not.toContain('deepest');
  });
});

describe('roots and effective scopes', () => {
  it('does not make a document included by another document a root, whatever the order', async () => {
    const root = tempTree({
      'sites/app.conf': 'server { include common.conf; }\n',
      'sites/common.conf': 'location / { proxy_pass http://u; }\n',
    });
    for (const order of [['sites/app.conf', 'sites/common.conf'], ['sites/common.conf', 'sites/app.conf']]) {
      const workspace = await workspaceOf(docsFrom(root, ...order));
      expect(workspace.roots.map((r) => path.basename(r.file.path))).toEqual(['app.conf']);
      expect(workspace.files).toHaveLength(2);
    }
  });

  it('gives an included file the context and ancestors of its include', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { server { include locations.conf; } }\n`,
      'locations.conf': 'location / { proxy_pass http://u; }\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf', 'locations.conf'));
    expect(workspace.roots).toHaveLength(1);
    expect(workspace.roots[0]!.context).toBe('main');
    const all = visits(workspace);
    const location = all.find((v) => v.name === 'location')!;
    expect(location.scope.context).toBe('server');
    expect(location.scope.ancestors.map((d) => d.name)).toEqual(['http', 'server']);
    expect(location.scope.includedFrom.map((d) => d.name)).toEqual(['include']);
    const proxyPass = all.find((v) => v.name === 'proxy_pass')!;
    expect(proxyPass.scope.context).toBe('location');
    expect(proxyPass.scope.ancestors.map((d) => d.name)).toEqual(['http', 'server', 'location']);
    expect(proxyPass.scope.root.file.path).toBe(path.join(root, 'nginx.conf'));
  });

  it('parses a file included twice once, and walks it in both places', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { server { include common.conf; } server { include common.conf; } }\n`,
      'common.conf': 'keepalive_timeout 10;\n',
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'));
    expect(workspace.files.map((f) => path.basename(f.path))).toEqual(['nginx.conf', 'common.conf']);
    const both = visits(workspace).filter((v) => v.name === 'keepalive_timeout');
    expect(both).toHaveLength(2);
    expect(both[0]!.scope.ancestors[1]).not.toBe(both[1]!.scope.ancestors[1]);
    const include = workspace.files[0]!.directives[1]!.children[0]!.children[0]!;
    expect(workspace.includes.get(include)).toEqual([workspace.files[1]]);
  });

  it('uses a document text over the disk copy when it is included', async () => {
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include site.conf; }\n`,
      'site.conf': 'on_disk 1;\n',
    });
    const docs = [...docsFrom(root, 'nginx.conf'), { path: path.join(root, 'site.conf'), text: 'unsaved 1;\n' }];
    const names = visits(await workspaceOf(docs)).map((v) => v.name);
    expect(names).toContain('unsaved');
    expect(names).not.toContain('on_disk');
  });
});

describe('include resolution shared across roots', () => {
  it('resolves a glob once for every root searching the same directories, and each root still reaches its files', async () => {
    const snippets = { '/v/snippets/proxy.conf': 'proxy_http_version 1.1;\n', '/v/snippets/headers.conf': 'proxy_set_header Connection "";\n' };
    const sites = ['a', 'b', 'c'].map((name) => ({
      path: `/v/sites/${name}.conf`,
      text: `server {\n  listen 80;\n  location / {\n    include /v/snippets/*.conf;\n  }\n}\n`,
    }));
    const files = [...sites, ...Object.entries(snippets).map(([path, text]) => ({ path, text }))];
    const host = createVirtualHost(files);
    const globs: string[] = [];
    const counting = { ...host, glob: (pattern: string, confinement?: GlobConfinement) => (globs.push(pattern), host.glob(pattern, confinement)) };
    const workspace = buildWorkspace(sites, counting, await loadNginxParser(), { contexts: Object.fromEntries(sites.map((site) => [site.path, 'http'])) });
    expect(workspace.roots.map((root) => root.file.path)).toEqual(sites.map((site) => site.path));
    for (const root of workspace.roots) {
      expect([...root.includes.values()].flat().map((file) => file.path).sort()).toEqual(Object.keys(snippets).sort());
    }
    expect(globs).toEqual(['/v/snippets/*.conf']);
  });
});

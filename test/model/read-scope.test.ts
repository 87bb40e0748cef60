// Includes are followed only inside the read roots and the path-map targets: never on the linting machine's disk.
import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { createFsHost } from '../../server/src/util/fs-host.js';
import type { FileHost, PathMapping, SourceDocument } from '../../server/src/util/types.js';
import { createReadScope, globBase, realPath } from '../../server/src/model/read-scope.js';
import { buildWorkspace, type Workspace } from '../../server/src/model/workspace.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { tempTree } from './support.js';

/** The real disk, remembering every path the core asked about. */
function recordingHost(): FileHost & { touched: string[] } {
  const disk = createFsHost();
  const touched: string[] = [];
  return {
    touched,
    readFile: (p) => (touched.push(p), disk.readFile(p)),
    exists: (p) => (touched.push(p), disk.exists(p)),
    glob: (p) => (touched.push(p), disk.glob(p)),
  };
}

function docsFrom(root: string, ...relative: string[]): SourceDocument[] {
  return relative.map((r) => ({ path: path.join(root, r), text: readFileSync(path.join(root, r), 'utf8') }));
}

async function workspaceOf(
  docs: SourceDocument[],
  host: FileHost,
  options: { pathMap?: PathMapping[]; readRoots?: string[] } = {},
): Promise<Workspace> {
  return buildWorkspace(docs, host, await loadNginxParser(), options);
}

/** Kind, headline and, where there is one, the detail (full paths, the mapping to use). */
function problems(workspace: Workspace): string[][] {
  return workspace.includeProblems.map((p) => (p.detail === undefined ? [p.kind, p.message] : [p.kind, p.message, p.detail]));
}

const MAIN = 'events {}\n';

describe('absolute includes outside the read roots', () => {
  it('are not followed, not even globbed, and say how to map them', async () => {
    const host = recordingHost();
    const root = tempTree({
      'nginx.conf': `${MAIN}http {\n  include /etc/nginx/conf.d/*.conf;\n  include /etc/nginx/sites-enabled/default;\n}\n`,
    });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), host);
    expect(problems(workspace)).toEqual([
      [
        'outside',
        'include "/etc/nginx/conf.d/*.conf" is outside the checked paths: map it with --path-map',
        'Not followed. Check a copy of it with --path-map /etc/nginx=<dir>, <dir> holding the copy.',
      ],
      [
        'outside',
        'include "/etc/nginx/sites-enabled/default" is outside the checked paths: map it with --path-map',
        'Not followed. Check a copy of it with --path-map /etc/nginx=<dir>, <dir> holding the copy.',
      ],
    ]);
    // Only the main config's own conf.d/ and sites-enabled/ were looked at (as installed there: model/includes.ts).
    expect(host.touched).toEqual([path.join(root, 'conf.d/*.conf'), path.join(root, 'sites-enabled/default')]);
    const text = workspace.files[0]!.text;
    const [first] = workspace.includeProblems;
    expect(text.slice(first!.span.startOffset, first!.span.endOffset)).toBe('/etc/nginx/conf.d/*.conf');
  });

  it('are not read even when the file exists on this machine', async () => {
    const elsewhere = tempTree({ 'conf.d/a.conf': 'from_elsewhere 1;\n' });
    const root = tempTree({
      'nginx.conf': `${MAIN}http { include ${elsewhere}/conf.d/*.conf; include ${elsewhere}/conf.d/a.conf; }\n`,
    });
    const host = recordingHost();
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), host);
    expect(workspace.files).toHaveLength(1);
    const hint = `--path-map ${elsewhere}/conf.d=<dir>`;
    expect(problems(workspace).map(([kind, , detail]) => [kind, detail!.includes(hint)])).toEqual([
      ['outside', true],
      ['outside', true],
    ]);
    expect(host.touched.filter((p) => p.startsWith(elsewhere))).toEqual([]);
  });

  it('are followed inside explicit read roots and path-map targets', async () => {
    const elsewhere = tempTree({ 'a.conf': 'from_root 1;\n', 'mapped/b.conf': 'from_map 1;\n' });
    const root = tempTree({ 'nginx.conf': `${MAIN}http { include ${elsewhere}/a.conf; include /etc/nginx/b.conf; }\n` });
    const pathMap = [{ from: '/etc/nginx', to: path.join(elsewhere, 'mapped') }];
    const readRoots = [root, path.join(elsewhere, 'a.conf')];
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), recordingHost(), { pathMap, readRoots });
    expect(problems(workspace)).toEqual([]);
    expect(workspace.files.map((f) => path.basename(f.path))).toEqual(['nginx.conf', 'a.conf', 'b.conf']);
  });

  it('keep files nginx ships silent', async () => {
    const host = recordingHost();
    const root = tempTree({ 'nginx.conf': `${MAIN}http { include /etc/nginx/mime.types; include /etc/nginx/modules-enabled/*.conf; }\n` });
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), host);
    expect(problems(workspace)).toEqual([]);
    // Looked for beside the main config (as installed there), nowhere else.
    expect(host.touched).toEqual([path.join(root, 'mime.types'), path.join(root, 'modules-enabled/*.conf')]);
  });

  it('collapse `..` before mapping, so a mapping cannot be escaped', async () => {
    const root = tempTree({ 'nginx.conf': `${MAIN}http { include /etc/nginx/../shadow.conf; }\n`, 'deploy/.keep': '' });
    const host = recordingHost();
    const pathMap = [{ from: '/etc/nginx', to: path.join(root, 'deploy') }];
    const workspace = await workspaceOf(docsFrom(root, 'nginx.conf'), host, { pathMap });
    expect(problems(workspace)).toEqual([
      [
        'outside',
        'include "/etc/nginx/../shadow.conf" is outside the checked paths: map it with --path-map',
        'Not followed. Check a copy of it with --path-map /etc=<dir>, <dir> holding the copy.',
      ],
    ]);
    expect(host.touched).toEqual([]);
  });
});

describe('relative includes and the read roots', () => {
  it('reports a relative path climbing out of the roots as outside, without a mapping hint', async () => {
    const root = tempTree({ 'etc/nginx.conf': `${MAIN}http { include ../other/x.conf; }\n`, 'other/x.conf': 'x 1;\n' });
    const host = recordingHost();
    const workspace = await workspaceOf(docsFrom(root, 'etc/nginx.conf'), host);
    expect(problems(workspace)).toEqual([['outside', 'include "../other/x.conf" leads outside the checked paths: not followed']]);
    expect(host.touched).toEqual([]);
  });

  it('stops the ancestor fallback at the read roots', async () => {
    const root = tempTree({
      'a/sites-enabled/app': 'server { include snippets/ssl.conf; }\n',
      'a/snippets/ssl.conf': 'ssl_protocols TLSv1.3;\n',
      'snippets/ssl.conf': 'from_above 1;\n',
    });
    const docs = docsFrom(root, 'a/sites-enabled/app');
    const host = recordingHost();
    const alone = await workspaceOf(docs, host);
    const sites = path.join(root, 'a/sites-enabled');
    expect(problems(alone)).toEqual([
      ['missing', 'include file "snippets/ssl.conf" not found: fix the path or use --path-map', `Looked in ${sites}.`],
    ]);
    expect(host.touched.every((p) => p.startsWith(`${sites}/`))).toBe(true);

    const widened = await workspaceOf(docs, recordingHost(), { readRoots: [path.join(root, 'a')] });
    expect(problems(widened)).toEqual([]);
    expect(widened.files.map((f) => path.relative(root, f.path))).toEqual(['a/sites-enabled/app', 'a/snippets/ssl.conf']);
  });

  it('says how far it looked when it climbed', async () => {
    const root = tempTree({ 'a/b/site.conf': 'server { include nowhere.conf; }\n' });
    const workspace = await workspaceOf(docsFrom(root, 'a/b/site.conf'), recordingHost(), { readRoots: [root] });
    const from = path.join(root, 'a/b');
    expect(problems(workspace)).toEqual([
      [
        'missing',
        'include file "nowhere.conf" not found: fix the path or use --path-map',
        `Looked in ${from} and its parents up to ${root}.`,
      ],
    ]);
  });
});

describe('symlinks', () => {
  function linkedTree() {
    const elsewhere = tempTree({ 'secret.conf': 'from_secret 1;\n', 'dir/x.conf': 'from_linked_dir 1;\n' });
    const root = tempTree({
      'nginx.conf': MAIN,
      'conf.d/good.conf': 'from_good 1;\n',
      'real.conf': 'from_real 1;\n',
    });
    symlinkSync(path.join(elsewhere, 'secret.conf'), path.join(root, 'conf.d/evil.conf'));
    symlinkSync(path.join(elsewhere, 'dir'), path.join(root, 'linked-dir'));
    symlinkSync(path.join(root, 'real.conf'), path.join(root, 'inner-link.conf'));
    return { root, elsewhere };
  }

  async function check(root: string, body: string): Promise<Workspace> {
    const doc = { path: path.join(root, 'nginx.conf'), text: `${MAIN}http { ${body} }\n` };
    return workspaceOf([doc], recordingHost());
  }

  it('does not follow a link inside a root that points outside', async () => {
    const { root } = linkedTree();
    const workspace = await check(root, 'include conf.d/evil.conf;');
    expect(problems(workspace)).toEqual([
      ['outside', 'include "conf.d/evil.conf" leads outside the checked paths: not followed'],
    ]);
    expect(workspace.files).toHaveLength(1);
  });

  it('keeps the glob matches that stay inside and names the link that leaves', async () => {
    const { root } = linkedTree();
    const workspace = await check(root, 'include conf.d/*.conf;');
    expect(workspace.files.map((f) => path.basename(f.path))).toEqual(['nginx.conf', 'good.conf']);
    const evil = path.join(root, 'conf.d/evil.conf');
    expect(problems(workspace)).toEqual([
      ['outside', 'include "conf.d/*.conf" matches a link outside the checked paths: not followed', `The link: ${evil}.`],
    ]);
  });

  it('does not glob through a linked directory that leaves the root', async () => {
    const { root } = linkedTree();
    const workspace = await check(root, 'include linked-dir/*.conf;');
    expect(problems(workspace).map(([kind]) => kind)).toEqual(['outside']);
    expect(workspace.files).toHaveLength(1);
  });

  it('follows a link that stays inside the root', async () => {
    const { root } = linkedTree();
    const workspace = await check(root, 'include inner-link.conf;');
    expect(problems(workspace)).toEqual([]);
    expect(workspace.files.map((f) => path.basename(f.path))).toEqual(['nginx.conf', 'inner-link.conf']);
  });
});

describe('createReadScope', () => {
  it('allows what is under an area as written and after resolving links', () => {
    const root = tempTree({ 'a/x.conf': '' });
    const scope = createReadScope([path.join(root, 'a')]);
    expect(scope.allows(path.join(root, 'a/x.conf'))).toBe(true);
    expect(scope.allows(path.join(root, 'a/missing/deeper.conf'))).toBe(true);
    expect(scope.allows(path.join(root, 'a'))).toBe(true);
    expect(scope.allows(path.join(root, 'ab/x.conf'))).toBe(false);
    expect(scope.allows(path.join(root, 'a/../b.conf'))).toBe(false);
  });

  it('resolves links of paths that do not exist through their nearest existing ancestor', () => {
    const root = tempTree({ 'real/.keep': '' });
    symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
    expect(realPath(path.join(root, 'link/not/there.conf'))).toBe(path.join(realPath(root), 'real/not/there.conf'));
    expect(realPath('/nonexistent-nk/a.conf')).toBe('/nonexistent-nk/a.conf');
  });

  it('finds the directory a glob expands from', () => {
    expect(globBase('/etc/nginx/conf.d/*.conf')).toBe('/etc/nginx/conf.d');
    expect(globBase('/etc/*/x.conf')).toBe('/etc');
    expect(globBase('/*.conf')).toBe('/');
    expect(globBase('/etc/x.conf')).toBe('/etc/x.conf');
  });
});

describe('the include rule', () => {
  it('reports an include outside the checked paths as information', async () => {
    const root = tempTree({ 'nginx.conf': `${MAIN}http { include /etc/nginx/conf.d/*.conf; include missing.conf; }\n` });
    const findings = await analyze(docsFrom(root, 'nginx.conf'));
    expect(findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['include', 'info'],
      ['include', 'warning'],
    ]);
  });

  it('follows what analyze is told it may read', async () => {
    const root = tempTree({
      'sites/app.conf': 'server { include snippets/a.conf; }\n',
      'snippets/a.conf': 'include missing.conf;\n',
    });
    const findings = await analyze(docsFrom(root, 'sites/app.conf'), { readRoots: [root] });
    expect(findings.map((f) => [path.relative(root, f.file), f.severity])).toEqual([['snippets/a.conf', 'warning']]);
  });
});

describe('createReadScope: links resolved one component at a time (issue 10, item 13)', () => {
  it('follows absolute and relative links that stay inside, refuses a chain that passes outside', () => {
    const elsewhere = tempTree({ '.keep': '' });
    const root = tempTree({ 'a/real.conf': '', 'a/sub/.keep': '' });
    symlinkSync(path.join(root, 'a/real.conf'), path.join(root, 'a/absolute.conf'));
    symlinkSync('../real.conf', path.join(root, 'a/sub/relative.conf'));
    symlinkSync(path.join(root, 'a/real.conf'), path.join(elsewhere, 'back.conf'));
    symlinkSync(path.join(elsewhere, 'back.conf'), path.join(root, 'a/via-outside.conf'));
    symlinkSync(elsewhere, path.join(root, 'a/out'));
    symlinkSync('loop.conf', path.join(root, 'a/loop.conf'));
    const scope = createReadScope([path.join(root, 'a')]);
    expect(scope.allows(path.join(root, 'a/absolute.conf'))).toBe(true);
    expect(scope.allows(path.join(root, 'a/sub/relative.conf'))).toBe(true);
    // Following it would mean reading a link outside the checked paths.
    expect(scope.allows(path.join(root, 'a/via-outside.conf'))).toBe(false);
    expect(scope.allows(path.join(root, 'a/out'))).toBe(false);
    expect(scope.allows(path.join(root, 'a/out/anything/below.conf'))).toBe(false);
    // A loop resolves no further; reading it later fails with ELOOP, reported with its path.
    expect(scope.allows(path.join(root, 'a/loop.conf'))).toBe(true);
  });

  it('follows an absolute link target written through a linked area (as /tmp -> /private/tmp on macOS)', () => {
    const root = tempTree({ 'real-ws/real.conf': '' });
    symlinkSync(path.join(root, 'real-ws'), path.join(root, 'alias'));
    symlinkSync(path.join(root, 'alias/real.conf'), path.join(root, 'real-ws/absolute.conf'));
    const scope = createReadScope([path.join(root, 'alias')]);
    expect(scope.allows(path.join(root, 'alias/absolute.conf'))).toBe(true);
  });

  it('has one key per set of areas', () => {
    expect(createReadScope(['/b', '/a']).key).toBe(createReadScope(['/a', '/b']).key);
    expect(createReadScope(['/a']).key).not.toBe(createReadScope(['/a', '/b']).key);
  });
});

// The language server's index of workspace nginx files walks with the CLI's walker: links that stay inside the
// folders are followed (each real directory once), links out are remembered and not followed, and the limits cut a
// scan short breadth first, so the shallow files are the ones kept.
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceIndex } from '../../server/src/lsp/workspace-index.js';
import { useTempTrees } from '../cli/helpers.js';

const tree = useTempTrees();
const SITE = 'server { listen 80; location / { proxy_pass http://127.0.0.1:8081; } }\n';

describe('WorkspaceIndex', () => {
  it('follows a directory link inside the folder once, and remembers a link leading out', () => {
    const outside = tree({ 'secret.conf': SITE });
    const root = tree({ 'nginx.conf': 'events {}\n', 'sites-available/app.conf': SITE, 'README.md': '# not nginx\n' });
    symlinkSync('sites-available', path.join(root, 'sites-enabled'));
    symlinkSync('.', path.join(root, 'loop'));
    symlinkSync(outside, path.join(root, 'out'));
    const index = new WorkspaceIndex();
    index.scan([root]);
    // One real file reached through sites-available/, sites-enabled/ and loop/...: listed once per path walked
    // first, never through the loop a second time; nothing from outside.
    const listed = index.list().map((file) => path.relative(root, file));
    expect(listed).toContain('nginx.conf');
    expect(listed.filter((file) => file.endsWith('app.conf')).length).toBe(1);
    expect(listed.some((file) => file.includes('secret'))).toBe(false);
    expect([...index.escaped].map((link) => path.relative(root, link))).toEqual(['out']);
    expect(index.truncated).toBe(false);
  });

  it('stops at its file limit breadth first and says it was cut short', () => {
    const files: Record<string, string> = { 'a.conf': SITE, 'b.conf': SITE };
    for (let depth = 1; depth <= 5; depth++) files[`${'d/'.repeat(depth)}deep${depth}.conf`] = SITE;
    const root = tree(files);
    mkdirSync(path.join(root, 'empty'));
    const index = new WorkspaceIndex({ files: 3, directories: 100 });
    index.scan([root]);
    expect(index.list().map((file) => path.relative(root, file))).toEqual(['a.conf', 'b.conf', 'd/deep1.conf']);
    expect(index.truncated).toBe(true);
  });
});

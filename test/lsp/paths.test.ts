// Document URIs to the paths the core analyzes them under: files as themselves; VS Code for the Web's repository URIs
// keeping their directories (so relative includes reach each other), confined under the virtual directory; anything
// else one flat name there.
import { describe, expect, it } from 'vitest';
import { isFileUri, pathOfUri } from '../../server/src/lsp/paths.js';

const VIRTUAL = '/nonexistent-nginx-keepalive-documents';

describe('pathOfUri', () => {
  it('gives a file URI its path', () => {
    expect(pathOfUri('file:///etc/nginx/nginx.conf')).toBe('/etc/nginx/nginx.conf');
    expect(pathOfUri('file:///w/a%20b/site.conf')).toBe('/w/a b/site.conf');
    expect(isFileUri('file:///etc/nginx/nginx.conf')).toBe(true);
  });

  it('keeps the directories of a URI with an authority, so a relative include reaches its neighbour', () => {
    const main = pathOfUri('vscode-vfs://github/acme/infra/nginx/nginx.conf');
    const site = pathOfUri('vscode-vfs://github/acme/infra/nginx/conf.d/app%20one.conf');
    expect(main).toBe(`${VIRTUAL}/vscode-vfs/github/acme/infra/nginx/nginx.conf`);
    expect(site).toBe(`${VIRTUAL}/vscode-vfs/github/acme/infra/nginx/conf.d/app one.conf`);
    expect(isFileUri('vscode-vfs://github/acme/infra/nginx/nginx.conf')).toBe(false);
  });

  it('keeps an authority apart from the path, and `..` inside its own authority', () => {
    expect(pathOfUri('vscode-test-web://mount/a/../b.conf')).toBe(`${VIRTUAL}/vscode-test-web/mount/b.conf`);
    const climbing = pathOfUri('x-repo://host/%2E%2E/%2E%2E/etc/passwd');
    expect(climbing.startsWith(`${VIRTUAL}/`)).toBe(true);
    expect(climbing).not.toContain('/etc/passwd');
    expect(pathOfUri('x-repo://a%2Fb/c.conf')).toBe(`${VIRTUAL}/x-repo/a%252Fb/c.conf`);
  });

  it('names anything else flatly under the virtual directory', () => {
    expect(pathOfUri('untitled:Untitled-1')).toBe(`${VIRTUAL}/untitled%3AUntitled-1`);
    expect(pathOfUri('file://host/share/x.conf')).toBe(`${VIRTUAL}/${encodeURIComponent('file://host/share/x.conf')}`);
  });
});

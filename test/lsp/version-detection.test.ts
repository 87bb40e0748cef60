// The language server's settings per workspace folder: the nginx version detected from the folder's Dockerfile or
// compose file (below the project's settings file and the editor's setting), and the settings file's "contexts".
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectNginxImage } from '../../server/src/engine/version-detect.js';
import { readEditorSettings } from '../../server/src/lsp/editor-settings.js';
import { knownRuleIds, SettingsStore } from '../../server/src/lsp/settings-store.js';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient, uriOf } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

function store(folder: string, editor: unknown = {}): SettingsStore {
  const settings = new SettingsStore(() => {});
  settings.setEditorSettings(readEditorSettings(editor, folder, knownRuleIds()));
  settings.setWorkspaceFolders([folder]);
  return settings;
}

describe('SettingsStore: nginx version per workspace folder', () => {
  it('detects the folder Dockerfile, then the editor setting and the settings file win', () => {
    const folder = tree({ '.git/HEAD': '', 'docker/Dockerfile': 'FROM nginx:stable\n', 'nginx/site.conf': '' });
    const file = path.join(folder, 'nginx/site.conf');
    expect(store(folder).settingsFor(file, [folder])).toMatchObject({
      nginxVersion: '1.30.5',
      nginxTarget: { source: 'detected', label: '1.30', file: path.join(folder, 'docker/Dockerfile'), line: 1 },
    });
    expect(store(folder, { nginxVersion: '1.24' }).settingsFor(file, [folder])).toMatchObject({
      nginxVersion: '1.24.0',
      nginxTarget: { source: 'editor' },
    });
  });

  it('reads the settings file first, and its "contexts" for the root analyzed', () => {
    const folder = tree({
      '.nginx-keepalive.json': '{"nginxVersion": "1.22.1", "contexts": {"snippets/*.conf": "location"}}',
      Dockerfile: 'FROM nginx:1.31\n',
      'snippets/a.conf': '',
    });
    const file = path.join(folder, 'snippets/a.conf');
    const settings = store(folder, { nginxVersion: '1.31.0' }).settingsFor(file, [folder]);
    expect(settings).toMatchObject({ nginxVersion: '1.22.1', nginxTarget: { source: 'settings' } });
    expect(settings.contexts).toEqual({ [file]: 'location' });
  });

  it('falls back to the default when nothing names a version', () => {
    const folder = tree({ 'site.conf': '' });
    expect(store(folder).settingsFor(path.join(folder, 'site.conf'), [folder])).toMatchObject({
      nginxVersion: undefined,
      nginxTarget: { source: 'default', label: 'before 1.29.7' },
    });
  });
});

describe('detection is bounded and cached (issue 26, item 5)', () => {
  it('lists at most maxDirectories directories, nearest first: a Dockerfile beyond the bound is not found', () => {
    // Ten directories beside each other, each with an empty one below, and the Dockerfile at the third level.
    const files: Record<string, string> = { 'a/b/c/Dockerfile': 'FROM nginx:1.27.3\n' };
    for (let i = 0; i < 10; i++) files[`d${i}/e/site.conf`] = '';
    const root = tree(files);
    const scope = (maxDirectories: number) => ({ directories: [root], first: root, allows: () => false, maxDirectories });
    expect(detectNginxImage(scope(30))).toMatchObject({ image: 'nginx:1.27.3', file: path.join(root, 'a/b/c/Dockerfile') });
    // Breadth first: the root, its 11 children and their 11 children make 23; a/b/c is the 24th.
    expect(detectNginxImage(scope(23))).toBeUndefined();
    const shallow = tree({ ...files, Dockerfile: 'FROM nginx:1.25.0\n' });
    expect(detectNginxImage({ ...scope(1), directories: [shallow], first: shallow })).toMatchObject({ image: 'nginx:1.25.0' });
  });

  it('in the language server, only an event about a Dockerfile, a compose file or a directory holding one detects again', async () => {
    const dir = tree({
      'nginx.conf': 'events {}\nhttp {\n  include upstreams.conf;\n}\n',
      'upstreams.conf': 'upstream app { server 127.0.0.1:8080; }\n',
      'docker/Dockerfile': 'FROM nginx:1.27.3\n',
    });
    const client = await LspClient.start({ workspace: dir });
    const doc = client.open(path.join(dir, 'nginx.conf'), 'events {}\nhttp {\n  include upstreams.conf;\n}\n');
    await client.diagnosticsFor(doc.uri, 1);
    const detected = async () => ((await client.request('nginxKeepalive/status', { uri: doc.uri })) as { nginx: { label: string } }).nginx.label;
    expect(await detected()).toBe('1.27.3');
    // The Dockerfile changes with no event about it: events about other files (changed, created, deleted, a directory
    // created) must not make the server walk the workspace again, so it still answers with what it detected.
    writeFileSync(path.join(dir, 'docker/Dockerfile'), 'FROM nginx:1.30.0\n');
    writeFileSync(path.join(dir, 'new.conf'), '');
    client.notify('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: uriOf(path.join(dir, 'upstreams.conf')), type: 2 },
        { uri: uriOf(path.join(dir, 'new.conf')), type: 1 },
        { uri: uriOf(path.join(dir, 'gone.conf')), type: 3 },
      ],
    });
    await client.request('nginxKeepalive/status', { uri: doc.uri }); // the notification is handled before this
    expect(await detected()).toBe('1.27.3');
    // An event about the Dockerfile itself.
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(dir, 'docker/Dockerfile')), type: 2 }] });
    expect(await detected()).toBe('1.30.0');
    // The directory holding it deleted, reported as the directory alone; then one created holding another.
    rmSync(path.join(dir, 'docker'), { recursive: true });
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(dir, 'docker')), type: 3 }] });
    expect(await detected()).toBe('before 1.29.7');
    mkdirSync(path.join(dir, 'deploy'));
    writeFileSync(path.join(dir, 'deploy/compose.yaml'), 'services:\n  web:\n    image: nginx:1.26.1\n');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(dir, 'deploy')), type: 1 }] });
    expect(await detected()).toBe('1.26.1');
  });
});

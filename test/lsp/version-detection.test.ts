// The language server's settings per workspace folder: the nginx version detected from the folder's Dockerfile or
// compose file (below the project's settings file and the editor's setting), and the settings file's "contexts".
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEditorSettings } from '../../server/src/lsp/editor-settings.js';
import { knownRuleIds, SettingsStore } from '../../server/src/lsp/settings-store.js';
import { useTempTrees } from '../cli/helpers.js';

const tree = useTempTrees();

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

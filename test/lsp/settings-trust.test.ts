// The language server holds a workspace's `.nginx-keepalive.json` to the CLI's rule (issue 10, item 11): its pathMap
// may only map into the workspace folders, while the editor's own nginxKeepalive.pathMap setting may map anywhere.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEditorSettings } from '../../server/src/lsp/editor-settings.js';
import { knownRuleIds, SettingsStore } from '../../server/src/lsp/settings-store.js';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const MAIN = 'events {}\nhttp {\n    include /etc/nginx/app.conf;\n}\n';

/** A workspace folder `ws` whose settings file maps /etc/nginx to `outside`, a sibling of the folder. */
function workspace(): { root: string; folder: string; outside: string } {
  const root = tree({
    'ws/.nginx-keepalive.json': JSON.stringify({ pathMap: { '/etc/nginx': '../outside', '/opt/app': 'app' } }),
    'ws/nginx.conf': MAIN,
    'outside/app.conf': 'server { listen 80 }\n',
  });
  return { root, folder: path.join(root, 'ws'), outside: path.join(root, 'outside') };
}

describe('SettingsStore', () => {
  it("drops the workspace file's mappings outside the read roots, once reported, and keeps the others", () => {
    const { folder, outside } = workspace();
    const warnings: string[] = [];
    const store = new SettingsStore((message) => warnings.push(message));
    const file = path.join(folder, 'nginx.conf');
    expect(store.settingsFor(file, [folder]).pathMap).toEqual([{ from: '/opt/app', to: path.join(folder, 'app') }]);
    expect(store.settingsFor(file, [folder]).pathMap).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"pathMap./etc/nginx"');
    // Read roots that hold the target (a workspace with both folders) allow it.
    expect(store.settingsFor(file, [folder, outside]).pathMap).toHaveLength(2);
  });

  it("trusts the editor's own pathMap, which then applies to the refused prefix", () => {
    const { folder, outside } = workspace();
    const store = new SettingsStore(() => {});
    store.setEditorSettings(readEditorSettings({ pathMap: { '/etc/nginx': outside } }, folder, knownRuleIds()));
    expect(store.settingsFor(path.join(folder, 'nginx.conf'), [folder]).pathMap).toEqual([
      { from: '/opt/app', to: path.join(folder, 'app') },
      { from: '/etc/nginx', to: outside },
    ]);
  });
});

describe('the language server', () => {
  /** The codes of nginx.conf's diagnostics; `mapOutside`: the editor settings map /etc/nginx to `outside` too. */
  async function openMain(mapOutside: boolean) {
    const { folder, outside } = workspace();
    const settings = mapOutside ? { pathMap: { '/etc/nginx': outside } } : {};
    const client = await LspClient.start({ workspace: folder, settings });
    const doc = client.open(path.join(folder, 'nginx.conf'), MAIN);
    const { diagnostics } = await client.diagnosticsFor(doc.uri, doc.version);
    return { client, codes: diagnostics.map((diagnostic) => String(diagnostic.code)) };
  }

  it("does not follow the workspace file's mapping out of the folder, and says why", async () => {
    const { client, codes } = await openMain(false);
    // The include is reported as outside the checked paths, as without any mapping.
    expect(codes).toEqual(['include']);
    expect(client.messages.some((message) => message.type === 2 && message.message.includes('"pathMap./etc/nginx"'))).toBe(true);
  });

  it('follows the same mapping given in the editor settings', async () => {
    const { codes } = await openMain(true);
    expect(codes).toEqual([]);
  });
});

// Where "nginx-keepalive: Prove connection reuse" is offered: it runs nginx, so never in Restricted Mode (the command
// palette's `when` and the command's enablement need a trusted workspace; the nginx setting is one a workspace may
// not set there) and never in VS Code for the Web: only the node entry registers it and sets the context key the
// palette asks for, and nothing of it is in the browser bundle. Read from the manifest and the built bundles
// (dist/ is built by the global setup).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_SECTION, PROVE_AVAILABLE_CONTEXT, PROVE_COMMAND, PROVE_NGINX_PATH_SETTING } from '../../client/src/ids.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  main: string;
  browser: string;
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: {
    commands: { command: string; title: string; category: string; enablement?: string }[];
    menus: { commandPalette: { command: string; when: string }[] };
    configuration: { properties: Record<string, { default?: unknown; scope?: string }> };
  };
};
const bundle = (entry: string) => readFileSync(path.join(repoRoot, entry), 'utf8');

/** The `&&` terms of a when clause (the manifest uses no `||` or parentheses here). */
const terms = (when: string | undefined) => (when ?? '').split('&&').map((term) => term.trim());

describe('Prove connection reuse', () => {
  it('is contributed under its title', () => {
    expect(manifest.contributes.commands).toContainEqual(expect.objectContaining({ command: PROVE_COMMAND, title: 'Prove connection reuse', category: 'nginx-keepalive' }));
  });

  it('is neither shown nor enabled in Restricted Mode, and a workspace there cannot choose the nginx it runs', () => {
    const command = manifest.contributes.commands.find((entry) => entry.command === PROVE_COMMAND);
    expect(terms(command?.enablement)).toContain('isWorkspaceTrusted');
    const palette = manifest.contributes.menus.commandPalette.filter((entry) => entry.command === PROVE_COMMAND);
    expect(palette).toHaveLength(1);
    expect(terms(palette[0]?.when)).toEqual(['isWorkspaceTrusted', PROVE_AVAILABLE_CONTEXT]);
    const setting = `${CONFIGURATION_SECTION}.${PROVE_NGINX_PATH_SETTING}`;
    expect(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations).toContain(setting);
    // Empty: the CLI's own choice (nginx on PATH, then /usr/sbin/nginx).
    expect(manifest.contributes.configuration.properties[setting]).toMatchObject({ default: '', scope: 'resource' });
  });

  it('exists in the node bundle only: the browser bundle neither registers it nor sets the context key the palette needs', () => {
    expect(manifest.main).toBe('./dist/extension.cjs');
    expect(manifest.browser).toBe('./dist/extension-browser.cjs');
    const node = bundle('dist/extension.cjs');
    const browser = bundle('dist/extension-browser.cjs');
    // The positive control: the node bundle has the command, the key and the runner.
    // (Booleans: a failure would print a whole bundle.) Nothing of the view either: its page's heading.
    for (const text of [PROVE_COMMAND, PROVE_AVAILABLE_CONTEXT, 'ELECTRON_RUN_AS_NODE', 'dist/cli.js', 'nginx-keepalive prove']) {
      expect(node.includes(text), `the node bundle has ${text}`).toBe(true);
      expect(browser.includes(text), `the browser bundle has ${text}`).toBe(false);
    }
  });
});

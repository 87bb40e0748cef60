// The VS Code extension's manifest (package.json) and package: the settings are the rule registry's (written by
// `npm run generate`, whose freshness test/generated.test.ts checks), the names the client uses are the ones
// package.json and the server use, and the VSIX holds exactly what the extension runs. (The extension itself runs in
// test/e2e/code-server.e2e.ts.)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CONFIGURATION_SECTION,
  FIX_ALL_COMMAND,
  LANGUAGE_ID,
  PROVE_COMMAND,
  RESTART_COMMAND,
  RULE_DOCUMENTATION_REQUEST,
  RULES_REQUEST,
  SERVER_FIX_ALL_COMMAND,
  SHOW_OUTPUT_COMMAND,
  SHOW_RULE_DOCUMENTATION_COMMAND,
  STATUS_REQUEST,
} from '../client/src/ids.js';
import * as serverRuleDocumentation from '../server/src/lsp/rule-documentation.js';
import * as serverStatus from '../server/src/lsp/status.js';
import { SEVERITY_SETTINGS } from '../server/src/engine/config-file.js';
import { claimByName } from '../server/src/engine/nginx-files.js';
import { FIX_ALL_IN_WORKSPACE_COMMAND } from '../server/src/lsp/fix-workspace-command.js';
import { SETTINGS_SECTION } from '../server/src/lsp/editor-settings.js';
import { rules } from '../server/src/rules/registry.js';
import { zipEntries } from './e2e/support/zip-entries.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const packageJsonText = readFileSync(path.join(repoRoot, 'package.json'), 'utf8');

interface Setting {
  type?: string | string[];
  enum?: string[];
  default?: unknown;
  description?: string;
  properties?: Record<string, Setting>;
  additionalProperties?: boolean | Setting;
  items?: Setting;
}

interface Manifest {
  name: string;
  version: string;
  main: string;
  browser: string;
  activationEvents: string[];
  capabilities: {
    untrustedWorkspaces: { supported: boolean | 'limited'; restrictedConfigurations?: string[] };
    virtualWorkspaces: boolean | { supported: boolean | 'limited'; description?: string };
  };
  contributes: {
    languages: { id: string; filenames?: string[]; filenamePatterns?: string[]; extensions?: string[]; configuration?: string }[];
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, Setting> };
  };
}

const manifest = JSON.parse(packageJsonText) as Manifest;

const SIMPLE_TYPES = ['string', 'boolean', 'integer', 'number'];

/**
 * Whether VS Code's Settings editor gives `schema` a field of its own rather than an "Edit in settings.json" link:
 * the cases of initSettingValueType in VS Code's settingsTreeModels.ts (string, enum, integer, number, boolean,
 * arrays of simple items, a simple type or null, and objects whose every value schema is simple).
 */
function settingsEditorRenders(schema: Setting): boolean {
  const { type } = schema;
  if (Array.isArray(schema.enum)) return type === undefined || type === 'string' || type === 'number' || type === 'integer';
  if (typeof type === 'string' && SIMPLE_TYPES.includes(type)) return true;
  if (Array.isArray(type)) return type.length === 2 && type.includes('null') && (type.includes('integer') || type.includes('number'));
  if (type === 'array') return SIMPLE_TYPES.includes(String(schema.items?.type));
  if (type !== 'object') return false;
  const additional = schema.additionalProperties;
  if (additional === undefined || additional === true) return false;
  const values = Object.values(schema.properties ?? {});
  if (typeof additional === 'object') values.push(additional);
  return values.every((value) => Array.isArray(value.enum) || SIMPLE_TYPES.includes(String(value.type)));
}
const settings = manifest.contributes.configuration.properties;
const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nk-manifest-'));
  tempDirs.push(dir);
  return dir;
}

describe('contributes.configuration', () => {
  it('has a severity setting per rule with its default and description', () => {
    const ruleSettings = settings[`${CONFIGURATION_SECTION}.rules`]?.properties ?? {};
    expect(Object.keys(ruleSettings)).toEqual(rules.map((rule) => rule.meta.id));
    for (const rule of rules) {
      expect(ruleSettings[rule.meta.id], rule.meta.id).toMatchObject({
        enum: [...SEVERITY_SETTINGS],
        default: rule.meta.defaultSeverity,
        description: rule.meta.description,
      });
    }
  });

  it('lists every rule at its default severity, so the Settings editor shows a row per rule', () => {
    expect(settings[`${CONFIGURATION_SECTION}.rules`]?.default).toEqual(
      Object.fromEntries(rules.map((rule) => [rule.meta.id, rule.meta.defaultSeverity])),
    );
  });

  it('has only settings the Settings editor renders as a field (none that says "Edit in settings.json")', () => {
    const unrendered = Object.entries(settings).filter(([, schema]) => !settingsEditorRenders(schema)).map(([key]) => key);
    expect(unrendered).toEqual([]);
  });

  it('offers the keys the server reads, in the section it reads', () => {
    expect(SETTINGS_SECTION).toBe(CONFIGURATION_SECTION);
    for (const key of ['rules', 'nginxVersion', 'keepaliveConnections', 'pathMap', 'maxFileSize']) {
      expect(settings, key).toHaveProperty([`${CONFIGURATION_SECTION}.${key}`]);
    }
  });
});

describe('the extension entry points', () => {
  it('contributes the nginx language for nginx\'s own names only; the rest is claimed by content', () => {
    const language = manifest.contributes.languages.find((entry) => entry.id === LANGUAGE_ID);
    // `conf.d/*.conf`, `sites-*/`, `*.sigil`, `*.j2` hold other formats too (fontconfig XML, supervisor INI, Dokku's
    // compose.yml.sigil): client/src/claim-documents.ts switches them when their text is nginx.
    expect(language).toMatchObject({ extensions: ['.nginx'], filenames: ['nginx.conf', 'nginx.tmpl'], filenamePatterns: ['nginx.conf.*'] });
    // The walk's name rule agrees (nginx.tmpl aside: a Go template, sniffed by the walk for one nginx statement).
    for (const name of ['nginx.conf', 'nginx.conf.sigil', 'nginx.conf.j2', 'site.nginx']) expect(claimByName(name).kind, name).toBe('nginx');
    const configuration = JSON.parse(readFileSync(path.join(repoRoot, language?.configuration ?? ''), 'utf8')) as {
      comments: { lineComment: string };
    };
    expect(configuration.comments.lineComment).toBe('#');
  });

  it('activates on the language and on workspaces holding nginx files', () => {
    expect(manifest.activationEvents).toContain(`onLanguage:${LANGUAGE_ID}`);
    expect(manifest.activationEvents).toEqual(
      expect.arrayContaining(['workspaceContains:**/*.sigil', 'workspaceContains:**/nginx.conf', 'workspaceContains:**/conf.d/*.conf']),
    );
    // A single file opened without a folder (`sites-available/default`, `conf.d/app.conf`) opens as plain text or
    // properties; the extension must run to sniff it.
    expect(manifest.activationEvents).toEqual(expect.arrayContaining(['onLanguage:plaintext', 'onLanguage:properties']));
    expect(manifest.main).toBe('./dist/extension.cjs');
    // VS Code for the Web loads the browser entry, which starts the server in a web worker; a virtual workspace
    // (no disk) gets the open documents checked, and says so.
    expect(manifest.browser).toBe('./dist/extension-browser.cjs');
    expect(manifest.capabilities.virtualWorkspaces).toMatchObject({ supported: 'limited' });
  });

  it('runs in Restricted Mode, where a workspace may not widen what the checker reads', () => {
    // Nothing in the extension executes workspace content; only a workspace pathMap could point reads elsewhere.
    // The other is the nginx binary "Prove connection reuse" runs (test/client/prove-availability.test.ts).
    expect(manifest.capabilities.untrustedWorkspaces).toMatchObject({
      supported: 'limited',
      restrictedConfigurations: ['nginxKeepalive.pathMap', 'nginxKeepalive.prove.nginxPath'],
    });
    expect(Object.keys(manifest.contributes.configuration.properties)).toContain('nginxKeepalive.pathMap');
  });

  it('names the commands the client registers, and the one the server executes', () => {
    expect(manifest.contributes.commands.map((command) => command.command)).toEqual([
      FIX_ALL_COMMAND,
      RESTART_COMMAND,
      SHOW_OUTPUT_COMMAND,
      SHOW_RULE_DOCUMENTATION_COMMAND,
      PROVE_COMMAND,
    ]);
    expect(SERVER_FIX_ALL_COMMAND).toBe(FIX_ALL_IN_WORKSPACE_COMMAND);
  });

  it('sends the requests the server answers, by their names', () => {
    expect(STATUS_REQUEST).toBe(serverStatus.STATUS_REQUEST);
    expect(RULES_REQUEST).toBe(serverRuleDocumentation.RULES_REQUEST);
    expect(RULE_DOCUMENTATION_REQUEST).toBe(serverRuleDocumentation.RULE_DOCUMENTATION_REQUEST);
  });
});

describe('the VSIX', () => {
  it('holds the bundles, the wasm files and the manifest, and nothing else', () => {
    const vsix = path.join(tempDir(), 'extension.vsix');
    // dist/ is already built by the global setup; rebuilding here would race other test files reading it.
    const pack = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/package-vsix.mjs'), '--no-build', '--out', vsix], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(pack.status, pack.stdout + pack.stderr).toBe(0);
    expect(existsSync(vsix)).toBe(true);
    expect(zipEntries(vsix).sort()).toEqual([
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/LICENSE.txt',
      'extension/changelog.md',
      // What "Prove connection reuse" runs (`prove --format json`): the loader and the bundle it runs.
      'extension/dist/cli-main.cjs',
      'extension/dist/cli.js',
      'extension/dist/extension-browser.cjs',
      'extension/dist/extension.cjs',
      // nginx.org's reference, which dist/server-main.cjs reads on the first hover (model/nginx-docs-beside.ts).
      'extension/dist/nginx-docs.json',
      // Makes the loaders dist/cli.js and dist/server.js CommonJS (scripts/cli-loader.mjs).
      'extension/dist/package.json',
      'extension/dist/server-browser.js',
      'extension/dist/server-main.cjs',
      'extension/dist/server.js',
      'extension/dist/terminateProcess.sh',
      'extension/dist/tree-sitter-nginx.wasm',
      'extension/dist/web-tree-sitter.wasm',
      'extension/images/icon.png',
      'extension/images/vscode-code-lens.png',
      'extension/images/vscode-completion.png',
      'extension/images/vscode-diagnostics.png',
      'extension/images/vscode-directive-hover.png',
      'extension/images/vscode-quickfix.png',
      'extension/images/vscode-status.png',
      'extension/language-configuration.json',
      'extension/package.json',
      'extension/readme.md',
      'extension/syntaxes/nginx-go-template.injection.tmLanguage.json',
      'extension/syntaxes/nginx-jinja.injection.tmLanguage.json',
      'extension/syntaxes/nginx-markdown.injection.tmLanguage.json',
      'extension/syntaxes/nginx.tmLanguage.json',
    ]);
    // The extension page is the editor's README, its images in the VSIX and linked relatively (they show offline).
    const readme = spawnSync('unzip', ['-p', vsix, 'extension/readme.md'], { encoding: 'utf8' }).stdout;
    expect(readme).toMatch(/^# nginx-keepalive for VS Code\n/);
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((match) => match[1]);
    expect(images).toEqual([
      'images/vscode-diagnostics.png',
      'images/vscode-quickfix.png',
      'images/vscode-directive-hover.png',
      'images/vscode-completion.png',
      'images/vscode-code-lens.png',
      'images/vscode-status.png',
    ]);
    const packed = JSON.parse(spawnSync('unzip', ['-p', vsix, 'extension/package.json'], { encoding: 'utf8' }).stdout) as { icon: string };
    expect(packed.icon).toBe('images/icon.png');
    // The Marketplace's and Open VSX's page: the changelog tab is the repository's CHANGELOG.md.
    expect(spawnSync('unzip', ['-p', vsix, 'extension/changelog.md'], { encoding: 'utf8' }).stdout).toBe(readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8'));
  });

  it('is packed by vsce without a warning, with what the Marketplace and Open VSX show', () => {
    const vsix = path.join(tempDir(), 'extension.vsix');
    const pack = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/package-vsix.mjs'), '--no-build', '--out', vsix], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(pack.status, pack.stdout + pack.stderr).toBe(0);
    expect(pack.stdout + pack.stderr).not.toMatch(/WARNING|warn/i);
    const vsixManifest = spawnSync('unzip', ['-p', vsix, 'extension.vsixmanifest'], { encoding: 'utf8' }).stdout;
    for (const property of ['Links.Source', 'Links.Support', 'Branding.Color', 'Branding.Theme']) {
      expect(vsixManifest, property).toContain(`<Property Id="Microsoft.VisualStudio.Services.${property}"`);
    }
    for (const asset of ['Content.License', 'Content.Changelog', 'Content.Details', 'Icons.Default']) {
      expect(vsixManifest, asset).toContain(`<Asset Type="Microsoft.VisualStudio.Services.${asset}"`);
    }
    expect(vsixManifest).toContain('<Categories>Linters,Programming Languages</Categories>');
    expect(vsixManifest).toMatch(/<Identity Language="en-US" Id="nginx-keepalive" Version="[^"]+" Publisher="nginx-keepalive"/);
  });
});

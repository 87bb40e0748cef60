// Which open documents the VS Code extension switches to nginx (server/src/engine/document-claim.ts), on real files
// (test/engine/document-claim/SOURCES.md): fontconfig's XML and supervisor's INI under conf.d/ keep their language,
// nginx's conf.d file, an extensionless sites-available file and an Ansible vhost template switch. The decision is the
// directory walk's: the same files, written to disk, are what `check <dir>` and the language server's index pick.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverFiles } from '../../server/src/cli/discover.js';
import { claimDocument, type OpenDocument } from '../../server/src/engine/document-claim.js';
import { classifyFile, SNIFF_BYTES } from '../../server/src/engine/nginx-files.js';

const fixtures = path.join(import.meta.dirname, 'document-claim');
const real = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');

/** Each fixture, the language VS Code gives it without this extension, and whether it is nginx. */
const REAL_FILES: Array<{ file: string; languageId: string; nginx: boolean }> = [
  { file: '49-sansserif.conf', languageId: 'properties', nginx: false }, // fontconfig XML in fonts/conf.d/
  { file: 'supervisord.conf', languageId: 'properties', nginx: false }, // supervisor INI, `command=nginx -g 'daemon off;'`
  { file: 'nginx.repo.j2', languageId: 'plaintext', nginx: false }, // a yum repo INI template beside nginx's
  { file: 'default.conf', languageId: 'properties', nginx: true }, // nginx conf.d/default.conf
  { file: 'digitalocean', languageId: 'plaintext', nginx: true }, // sites-available/digitalocean, no extension
  { file: 'vhost.j2', languageId: 'plaintext', nginx: true }, // Ansible Jinja2 vhost template
];

const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nk-claim-'));
  tempDirs.push(dir);
  return dir;
}

describe('claimDocument on real files', () => {
  it.each(REAL_FILES)('$file ($languageId): switched to nginx only if it is nginx ($nginx)', ({ file, languageId, nginx }) => {
    const claim = claimDocument({ fileName: file, languageId, text: real(file) });
    expect(claim.switchToNginx).toBe(nginx);
  });

  it('says why it keeps a language', () => {
    expect(claimDocument({ fileName: '49-sansserif.conf', languageId: 'properties', text: real('49-sansserif.conf') })).toEqual({
      switchToNginx: false,
      reason: 'no nginx directive',
    });
  });

  it('agrees with the directory walk, file by file and for a whole tree', () => {
    const dir = tempDir();
    for (const { file, languageId } of REAL_FILES) {
      const onDisk = path.join(dir, file);
      writeFileSync(onDisk, real(file));
      expect(classifyFile(onDisk).claimed, file).toBe(claimDocument({ fileName: file, languageId, text: real(file) }).switchToNginx);
    }
    // The workspace: only nginx's own files are checked by `nginx-keepalive check .`.
    const workspace = tempDir();
    const tree = { 'fonts/conf.d/49-sansserif.conf': '49-sansserif.conf', 'supervisor/conf.d/app.conf': 'supervisord.conf',
      'nginx/conf.d/default.conf': 'default.conf', 'nginx/sites-available/digitalocean': 'digitalocean' };
    for (const [relative, fixture] of Object.entries(tree)) {
      const file = path.join(workspace, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, real(fixture));
    }
    expect(discoverFiles(['.'], workspace).files.map((file) => path.relative(workspace, file))).toEqual([
      'nginx/conf.d/default.conf',
      'nginx/sites-available/digitalocean',
    ]);
  });
});

describe('claimDocument never overrides a language that is not a fallback', () => {
  const nginxText = real('default.conf');
  it.each(['xml', 'ini', 'jinja', 'NGINX', 'shellscript'])('keeps %s, whatever the text', (languageId) => {
    expect(claimDocument({ fileName: 'default.conf', languageId, text: nginxText })).toEqual({
      switchToNginx: false,
      reason: `already ${languageId}`,
    });
  });

  it('leaves nginx documents alone', () => {
    expect(claimDocument({ fileName: 'default.conf', languageId: 'nginx', text: nginxText }).switchToNginx).toBe(false);
  });
});

describe('claimDocument follows the walk\'s name rule', () => {
  const doc = (fileName: string, text: string, languageId = 'plaintext'): OpenDocument => ({ fileName, languageId, text });

  it('switches nginx\'s own names without reading them, and never reads data or code', () => {
    expect(claimDocument(doc('nginx.conf', '')).switchToNginx).toBe(true);
    expect(claimDocument(doc('nginx.conf.default', '')).switchToNginx).toBe(true);
    // Dokku's compose template holds nginx-looking lines, but a .yml.sigil renders YAML.
    expect(claimDocument(doc('compose.yml.sigil', 'listen 80;\n'))).toEqual({ switchToNginx: false, reason: 'a .yml file' });
    expect(claimDocument(doc('README', 'server {\n  listen 80;\n}\n')).switchToNginx).toBe(false);
  });

  it('takes one statement line for a .sigil, as the walk does, and asks more of a name that says nothing', () => {
    expect(claimDocument(doc('hsts.conf.sigil', 'add_header Strict-Transport-Security "max-age=15724800";\n')).switchToNginx).toBe(true);
    expect(claimDocument(doc('notes', 'add_header X y;\nand then some prose about it\nmore prose\n')).switchToNginx).toBe(false);
  });
});

describe('claimDocument reads a bounded prefix, as the walk reads a file', () => {
  const filler = `# ${'é'.repeat(60)}\n`; // two bytes a character: the byte bound and the character count differ
  const late = `${filler.repeat(Math.ceil((SNIFF_BYTES * 2) / filler.length))}server {\n  listen 80;\n}\n`;

  it('does not see nginx that starts past the sniffed bytes, and neither does the walk', () => {
    const dir = tempDir();
    for (const name of ['late.conf', 'late-site']) {
      writeFileSync(path.join(dir, name), late);
      const languageId = name.endsWith('.conf') ? 'properties' : 'plaintext';
      expect(claimDocument({ fileName: name, languageId, text: late }).switchToNginx, name).toBe(false);
      expect(classifyFile(path.join(dir, name)).claimed, name).toBe(false);
    }
  });

  it('sniffs a *.conf of any size, and leaves a nameless text over 1 MB alone', () => {
    const blocklist = 'deny 192.0.2.1;\n'.repeat(100_000); // 1.6 MB
    expect(claimDocument({ fileName: 'blocklist.conf', languageId: 'properties', text: blocklist }).switchToNginx).toBe(true);
    expect(claimDocument({ fileName: 'blocklist', languageId: 'plaintext', text: blocklist })).toEqual({
      switchToNginx: false,
      reason: 'larger than 1 MB',
    });
  });

  it('answers at once on a document far larger than the bound', () => {
    const huge = `server {\n  listen 80;\n}\n${'x'.repeat(50 * 1024 * 1024)}`;
    const started = performance.now();
    expect(claimDocument({ fileName: 'huge.conf', languageId: 'properties', text: huge }).switchToNginx).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

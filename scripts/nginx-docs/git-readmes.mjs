// The READMEs of modules whose Debian orig tarball is no longer served (nchan) or that Debian does not package (VTS),
// read at the release tag the directive table has, from a bare mirror of the project's repository (the search tool's
// `fetch`). Each has its own layout, so each has its own reader; line by line, no regular expression sees more than
// one line. The first paragraph only, shortened as the other READMEs' are.
import { execFileSync } from 'node:child_process';
import { readReadme, shorten, unmark } from './readmes.mjs';

/** The READMEs read from git: the key the data file uses (the table's package name), the mirror, tag and licence. */
export const GIT_READMES = [
  // nchan 1.3.6 (Debian's libnginx-mod-nchan 1:1.3.6+dfsg-2): "Copyright (c) 2009-2020 Leo Ponomarev", MIT (LICENCE).
  { package: 'libnginx-mod-nchan', repository: 'https://github.com/slact/nchan', mirror: 'slact+nchan', tag: 'v1.3.6', file: 'README.md, src/nchan_commands.rb', licence: 'MIT', reader: 'nchan' },
  // nginx-module-vts 0.2.7: "Copyright (C) 2015, YoungJoo.Kim", BSD-2-Clause (LICENSE).
  { package: 'nginx-module-vts', repository: 'https://github.com/vozlt/nginx-module-vts', mirror: 'vozlt+nginx-module-vts', tag: 'v0.2.7', file: 'README.md', licence: 'BSD-2-Clause', reader: 'vts' },
  // The Debian packages whose orig tarball is 404 (see scripts/directive-table/debian-binaries.mjs): the README at the
  // upstream tag of the Debian version. memc 0.19: OpenResty, BSD-2-Clause; uploadprogress 0.9.2: Brice Figureau,
  // BSD-2-Clause (LICENSE); cache_purge 2.3: FRiCKLE, BSD-2-Clause (LICENSE); auth-pam 1.5.3: Sergio Talens-Oliag,
  // BSD-2-Clause (LICENSE).
  { package: 'libnginx-mod-http-memc', repository: 'https://github.com/openresty/memc-nginx-module', mirror: 'openresty+memc-nginx-module', tag: 'v0.19', file: 'README.markdown', licence: 'BSD-2-Clause', reader: 'generic' },
  { package: 'libnginx-mod-http-uploadprogress', repository: 'https://github.com/masterzen/nginx-upload-progress-module', mirror: 'masterzen+nginx-upload-progress-module', tag: 'v0.9.2', file: 'README', licence: 'BSD-2-Clause', reader: 'generic' },
  { package: 'libnginx-mod-http-cache-purge', repository: 'https://github.com/FRiCKLE/ngx_cache_purge', mirror: 'FRiCKLE+ngx_cache_purge', tag: '2.3', file: 'README.md', licence: 'BSD-2-Clause', reader: 'bullets' },
  { package: 'libnginx-mod-http-auth-pam', repository: 'https://github.com/sto/ngx_http_auth_pam_module', mirror: 'sto+ngx_http_auth_pam_module', tag: 'v1.5.3', file: 'README.md', licence: 'BSD-2-Clause', reader: 'list' },
];

/** auth-pam's "Configuration": `- \`\`auth_pam\`\`: This is the http authentication realm...` up to a blank line. */
export function readListed(readme) {
  const found = {};
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('- ``')) continue;
    const close = lines[i].indexOf('``:', 4);
    const name = close === -1 ? '' : lines[i].slice(4, close);
    if (!/^[a-z][a-z0-9_]*$/.test(name) || Object.hasOwn(found, name)) continue;
    const paragraph = [lines[i].slice(close + 3).trim()];
    for (let j = i + 1; j < lines.length && lines[j].trim() !== ''; j++) paragraph.push(lines[j].trim());
    found[name] = { syntax: [], context: [], text: shorten(unmark(paragraph.join(' '))) };
  }
  return found;
}

/** Backquotes and asterisks off both ends: `**vhost_traffic_status** <on|off>` → `vhost_traffic_status <on|off>`. */
function plain(text) {
  return unmark(text.replace(/\*\*/g, '').replace(/\*/g, '').replace(/`/g, ''));
}

function withSemicolon(syntax) {
  return syntax.endsWith(';') || syntax.endsWith('}') ? syntax : `${syntax};`;
}

/**
 * nchan's "Configuration Directives": `- **nchan_channel_id** \`<id>\``, then indented `arguments:`, `default:`,
 * `context:` lines and a `> description` line.
 */
export function readNchan(readme) {
  const lines = readme.split('\n');
  const found = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.startsWith('- **')) continue;
    const close = line.indexOf('**', 4);
    const name = close === -1 ? '' : line.slice(4, close);
    if (!/^[a-z][a-z0-9_]*$/.test(name) || Object.hasOwn(found, name)) continue;
    const args = line.slice(close + 2).trim();
    const entry = { syntax: [withSemicolon(args ? `${name} ${plain(args)}` : name)], context: [], text: '' };
    const paragraph = [];
    for (let j = i + 1; j < lines.length && lines[j].startsWith('  '); j++) {
      const field = lines[j].trim();
      if (field.startsWith('default:')) {
        const value = plain(field.slice('default:'.length));
        if (value && value !== '(none)') entry.default = [value];
      } else if (field.startsWith('context:')) {
        entry.context = field.slice('context:'.length).split(',').map((c) => c.trim()).filter(Boolean);
      } else if (field.startsWith('>')) {
        paragraph.push(field.slice(1).trim());
      }
    }
    entry.text = shorten(unmark(paragraph.join(' ')));
    if (entry.text) found[name] = entry;
  }
  return found;
}

/** `| **Syntax** | **name** *value* |` → ['Syntax', '**name** *value*']. */
function tableRow(line) {
  const cells = line.trim().split('|').map((c) => c.trim());
  return cells.length >= 4 ? [plain(cells[1]), cells.slice(2, -1).join('|').trim()] : undefined;
}

/** VTS's "Directives": `### name`, a two-column table of Syntax/Default/Context, then `` `Description:` text``. */
export function readVts(readme) {
  const lines = readme.split('\n');
  const found = {};
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('### ')) continue;
    const name = lines[i].slice(4).trim();
    if (!/^[a-z][a-z0-9_]*$/.test(name) || Object.hasOwn(found, name)) continue;
    const entry = { syntax: [], context: [], text: '' };
    const paragraph = [];
    // measure_status_codes puts its description before the table.
    const lead = [];
    for (let j = i + 1; j < lines.length && !lines[j].startsWith('#'); j++) {
      const line = lines[j].trim();
      if (paragraph.length > 0) {
        if (line === '') break;
        paragraph.push(line);
        continue;
      }
      if (entry.syntax.length === 0 && line !== '' && !line.startsWith('|')) {
        lead.push(line);
        continue;
      }
      const row = line.startsWith('|') ? tableRow(line) : undefined;
      if (row && row[0] === 'Syntax') entry.syntax.push(withSemicolon(plain(row[1])));
      else if (row && row[0] === 'Default' && plain(row[1]) && plain(row[1]) !== '-') entry.default = [plain(row[1])];
      else if (row && row[0] === 'Context') entry.context = plain(row[1]).split(',').map((c) => c.trim()).filter(Boolean);
      else if (line.startsWith('`Description:`')) paragraph.push(line.slice('`Description:`'.length).trim());
    }
    entry.text = shorten(unmark((paragraph.length > 0 ? paragraph : lead).join(' ')));
    if (entry.syntax.length > 0 && entry.text) found[name] = entry;
  }
  return found;
}

/**
 * The other names nchan_commands.rb (the file nchan's README and command table are generated from) gives a
 * directive: `alt: [ :nchan_pub_channel_id ]`, `legacy: "push_publisher"` → `{ nchan_pub_channel_id: 'nchan_publisher_channel_id' }`.
 */
export function nchanAliases(commands) {
  const aliases = {};
  let current;
  for (const line of commands.split('\n')) {
    const command = /^ {2}([a-z][a-z0-9_]*) \[/.exec(line);
    if (command) current = command[1];
    const trimmed = line.trim();
    if (!current || !(trimmed.startsWith('alt:') || trimmed.startsWith('legacy:'))) continue;
    for (const name of trimmed.slice(trimmed.indexOf(':') + 1).match(/[a-z][a-z0-9_]*/g) ?? []) aliases[name] ??= current;
  }
  return aliases;
}

/** nchan's README, plus its directives' other names (nchan_commands.rb), each described as the one it names. */
function readNchanWithAliases(readme, commands) {
  const found = readNchan(readme);
  for (const [alias, name] of Object.entries(nchanAliases(commands))) {
    const entry = found[name];
    if (!entry || Object.hasOwn(found, alias)) continue;
    found[alias] = { ...entry, syntax: [], text: shorten(`Another name of \`${name}\`: ${entry.text}`) };
  }
  return found;
}

const readme = (git, commit, file) => git('show', `${commit}:${file}`);
const READERS = {
  generic: (git, commit, file) => readReadme(readme(git, commit, file)),
  // cache_purge's `* **syntax**:` bullets are brotli's `- **syntax**:` ones for the generic reader; a directive is
  // listed twice (same-location and separate-location syntax): the first, the one users meet first, is kept.
  bullets: (git, commit, file) => readReadme(readme(git, commit, file).split('\n').map((line) => (line.startsWith('* **') ? `-${line.slice(1)}` : line)).join('\n')),
  list: (git, commit, file) => readListed(readme(git, commit, file)), nchan: (git, commit) => readNchanWithAliases(git('show', `${commit}:README.md`), git('show', `${commit}:src/nchan_commands.rb`)), vts: (git, commit) => readVts(git('show', `${commit}:README.md`)) };

/** Each README's entries, keyed by package, and what was read (commit and blob for the provenance file). */
export function readGitReadmes(mirrorsDir) {
  const packages = {};
  const read = [];
  for (const source of GIT_READMES) {
    const gitDir = `${mirrorsDir}/${source.mirror}/repo`;
    const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 16 << 20 });
    let commit;
    try {
      commit = git('rev-list', '-n', '1', source.tag).trim();
    } catch {
      throw new Error(`${gitDir} (a bare clone of ${source.repository} with tag ${source.tag}) is needed`);
    }
    packages[source.package] = READERS[source.reader](git, commit, source.file);
    read.push({ package: source.package, repository: source.repository, tag: source.tag, commit, file: source.file, licence: source.licence });
  }
  return { packages, read };
}

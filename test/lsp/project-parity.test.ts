// One engine, one answer (issue 25): for every real project layout under test/projects/, the language server's
// workspace/diagnostic answer over real stdio equals `check --format json .` run in that folder, finding for finding
// (rule, file, line, column, message, severity). The layouts are built from real upstream files (each folder's
// ATTRIBUTION.md says where from): a Debian /etc/nginx whose sites-enabled/ links into sites-available/ and whose
// nginx.conf includes its conf.d/ and sites by absolute /etc/nginx/... paths, a Docker compose project with envsubst
// templates, an Ansible role of Jinja2 templates and a Dokku app.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic, WorkspaceDiagnosticReport } from 'vscode-languageserver-protocol';
import { FOLDER_ANALYSIS_MAX_BYTES } from '../../server/src/lsp/analysis-units.js';
import { runCli, useTempTrees } from '../cli/helpers.js';
import { LspClient, REPO_ROOT } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const PROJECTS = path.join(REPO_ROOT, 'test/projects');
const projects = readdirSync(PROJECTS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** One finding as both adapters can state it: file relative to the folder, 1-based line and column. */
type Row = string;
const SEVERITY: Record<number, string> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

type Message = { ruleId: string; line: number; column: number; message: string; severity: number };
type Report = { filePath: string; messages: Message[] };

function cliReports(folder: string, args: string[] = []): Report[] {
  return JSON.parse(runCli(folder, ['check', '--format', 'json', ...args, '.']).stdout) as Report[];
}

function cliRows(folder: string, args: string[] = []): Row[] {
  return cliReports(folder, args).flatMap((report) =>
    report.messages.map((message) =>
      row(path.relative(folder, report.filePath), message.line, message.column, message.ruleId, jsonSeverity(message), message.message),
    ),
  ).sort();
}

/** The JSON output's ESLint levels: 2 error, 1 warning, 0 info (format-json.ts). */
function jsonSeverity(message: { severity: number }): string {
  return ['info', 'warning', 'error'][message.severity]!;
}

async function serverRows(folder: string, settings: Record<string, unknown> = {}): Promise<Row[]> {
  const client = await LspClient.start({ workspace: folder, pullDiagnostics: true, settings });
  const report = (await client.connection.sendRequest('workspace/diagnostic', { previousResultIds: [] })) as WorkspaceDiagnosticReport;
  return report.items.flatMap((item) => (item.kind !== 'full' ? [] : diagnosticRows(folder, fileURLToPath(item.uri), item.items))).sort();
}

function diagnosticRows(folder: string, file: string, diagnostics: readonly Diagnostic[]): Row[] {
  return diagnostics.map((diagnostic) =>
    row(
      path.relative(folder, file),
      diagnostic.range.start.line + 1,
      diagnostic.range.start.character + 1,
      String(diagnostic.code),
      SEVERITY[diagnostic.severity ?? 1]!,
      diagnostic.message,
    ),
  );
}

/** Every nginx file of the folder, links too (a sites-enabled link is a name the CLI does not report under). */
function namesIn(folder: string, reports: readonly Report[]): string[] {
  const checked = new Set(reports.map((report) => report.filePath));
  const linked = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isSymbolicLink() && checked.has(realpathSync(path.join(entry.parentPath, entry.name))))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return [...checked, ...linked].sort();
}

function row(file: string, line: number, column: number, rule: string, severity: string, message: string): Row {
  return `${file}:${line}:${column} ${severity} ${rule} ${message}`;
}

describe('the language server equals check --format json . on real project layouts', () => {
  it.each(projects)('%s', async (name) => {
    const folder = path.join(PROJECTS, name);
    const cli = cliRows(folder);
    expect(cli.length).toBeGreaterThan(0);
    expect(await serverRows(folder)).toEqual(cli);
  });

  it('debian-wordpress with nginxKeepalive.pathMap, as with --path-map (each linked site once, not only its link)', async () => {
    const folder = path.join(PROJECTS, 'debian-wordpress');
    const cli = cliRows(folder, ['--path-map', `/etc/nginx=${folder}`]);
    expect(cli.length).toBeGreaterThan(0);
    expect(await serverRows(folder, { pathMap: { '/etc/nginx': folder } })).toEqual(cli);
  });
});

describe('an open document shows what check reports for its file', () => {
  it.each(projects)('%s, every file open, links too (a link shows its target\'s findings)', async (name) => {
    const folder = path.join(PROJECTS, name);
    const reports = cliReports(folder);
    const rows = cliRows(folder);
    const client = await LspClient.start({ workspace: folder });
    for (const file of namesIn(folder, reports)) {
      // The name check reports the file under (a link's target).
      const target = reports.find((report) => realpathSync(report.filePath) === realpathSync(file))!.filePath;
      const expected = rows.filter((line) => line.startsWith(`${path.relative(folder, target)}:`));
      const document = client.open(file, readFileSync(file, 'utf8'));
      const published = await client.diagnosticsFor(document.uri, document.version);
      const shown = diagnosticRows(folder, target, published.diagnostics).sort();
      expect({ file: path.relative(folder, file), shown }).toEqual({ file: path.relative(folder, file), shown: expected });
      client.close(document.uri);
    }
  });
});

describe('a folder too large to analyze whole on every keystroke', () => {
  it('says so in the log and analyzes each file with what it includes', async () => {
    const filler = `events {}\n${'# generated\n'.repeat(Math.ceil(FOLDER_ANALYSIS_MAX_BYTES / 12) + 1)}`;
    const site = 'server {\n    listen 80;\n    location / {\n        proxy_pass http://app;\n    }\n}\n';
    const folder = tree({ 'nginx.conf.generated': filler, 'site.conf': site, 'upstreams.conf': 'upstream app {\n    server 127.0.0.1:8080;\n}\n' });
    const client = await LspClient.start({ workspace: folder });
    const document = client.open(path.join(folder, 'site.conf'), site);
    const codes = (await client.diagnosticsFor(document.uri, document.version)).diagnostics.map((diagnostic) => diagnostic.code);
    // Alone, the site does not see upstreams.conf: its pass looks literal (check . would link it to the upstream).
    expect(codes).toEqual(['proxy-pass-no-upstream']);
    expect(client.logs.map((entry) => entry.message).join('\n')).toContain(`over the bound of 500 files or ${FOLDER_ANALYSIS_MAX_BYTES} bytes`);
  });
});

describe('a templated upstream defined in one file and used in another', () => {
  // The Jinja2 and Dokku reports: the editor, analysing each file alone, called such a pass a literal address.
  const cases: Record<string, Record<string, string>> = {
    jinja2: {
      'templates/upstreams.conf.j2': 'upstream {{ app_name }} {\n    server 127.0.0.1:8000;\n    keepalive 16;\n}\n',
      'templates/site.conf.j2': 'server {\n    listen 80;\n    location / {\n        proxy_pass http://{{ app_name }};\n    }\n}\n',
    },
    dokku: {
      'nginx.conf.sigil': 'upstream {{ $.APP }}-5000 {\n  server 127.0.0.1:5000;\n}\n',
      'php.conf.sigil': 'server {\n  listen 80;\n  location ~ \\.php$ {\n    fastcgi_pass {{ $.APP }}-5000;\n  }\n}\n',
    },
  };
  it.each(Object.keys(cases))('%s: the open file shows what check . reports', async (name) => {
    const folder = tree(cases[name]!);
    const cli = cliRows(folder);
    expect(cli.length).toBeGreaterThan(0);
    const client = await LspClient.start({ workspace: folder });
    for (const file of Object.keys(cases[name]!)) {
      const absolute = path.join(folder, file);
      const document = client.open(absolute, cases[name]![file]!);
      const published = await client.diagnosticsFor(document.uri, document.version);
      expect(diagnosticRows(folder, absolute, published.diagnostics).sort()).toEqual(cli.filter((line) => line.startsWith(`${file}:`)));
    }
  });
});

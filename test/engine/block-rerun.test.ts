// The language server's re-run after an edit confined to one block (engine/block-rerun.ts), in a workspace of two
// files as a server runs it: nginx.conf includes sites/app.conf, and app.conf is edited through the server's own
// OpenDocument. After each edit the findings equal a fresh analysis, and `ranWhole` says which rules ran on
// everything: none for a listen port, all but `directive` for a header, every rule for an edit adding a line.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeWorkspace, type WorkspaceAnalysis } from '../../server/src/engine/analyze.js';
import { OpenDocument } from '../../server/src/lsp/open-document.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import type { ModelCache } from '../../server/src/model/types.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';
import { rules } from '../../server/src/rules/registry.js';
import { memoryHost } from '../property/support.js';

const DIR = '/block-rerun';
const MAIN = path.join(DIR, 'nginx.conf');
const APP = path.join(DIR, 'sites/app.conf');
const MAIN_TEXT = 'events {}\nhttp {\n    upstream app { server 127.0.0.1:3000; keepalive 8; }\n    include sites/*.conf;\n}\n';
const APP_TEXT = [
  'server {',
  '    listen 8080;',
  '    location / {',
  '        proxy_pass http://app;',
  '        proxy_buffering on;',
  '        proxy_set_header Host $host;',
  '    }',
  '    client_max_body_size 1m;',
  '}',
  'server {',
  '    listen 8081;',
  '    location / { proxy_pass http://app; proxy_http_version 1.1; }',
  '}',
  '',
].join('\n');

let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

/** The server's view of APP opened with `appText`: analyzeNow() checks each incremental analysis against a fresh one. */
function session(appText: string, mainText = MAIN_TEXT) {
  const document = new OpenDocument(`file://${APP}`, APP, 1, appText, () => 10_000_000);
  const mainModel = parseFile(parser, MAIN, mainText);
  const analyzeNow = async (previous?: WorkspaceAnalysis) => {
    const model = document.currentModel(parser);
    const text = document.text;
    const docs = [{ path: MAIN, text: mainText }];
    const host = memoryHost([...docs, { path: APP, text }]);
    // As the server's model store does: the unchanged file keeps its model, the edited one has its incremental one.
    const models: ModelCache = {
      get: (asked, askedText) => (asked === APP && askedText === text ? model : asked === MAIN ? mainModel : undefined),
    };
    const fresh = await analyzeWorkspace(docs, { host });
    const incremental = await analyzeWorkspace(docs, { host, models }, undefined, previous);
    expect(incremental.findings).toEqual(fresh.findings);
    return incremental;
  };
  /** Replaces the first `from` after `after` with `to`. */
  const edit = (after: string, from: string, to: string, version: number) => {
    const start = document.text.indexOf(from, document.text.indexOf(after));
    const range = { start: document.textDocument.positionAt(start), end: document.textDocument.positionAt(start + from.length) };
    document.applyChanges([{ range, text: to }], version);
  };
  return { document, analyzeNow, edit };
}

describe('re-running the rules within an edited block', () => {
  it('gives a fresh analysis\'s findings, running whole only the rules whose reading the edit changed', async () => {
    const { document, analyzeNow, edit } = session(APP_TEXT);
    try {
      let analysis = await analyzeNow();
      const findingsOf = (ruleId: string) => analysis.findings.filter((finding) => finding.ruleId === ruleId).map((finding) => finding.message);
      expect(findingsOf('proxy-http-version')).toHaveLength(1);
      expect(findingsOf('directive')).toEqual([]);

      // A port: only the directive rule reads it, and it reads it within the server.
      edit('listen', '8080', '9090', 2);
      analysis = await analyzeNow(analysis);
      expect(analysis.ranWhole).toEqual([]);

      // Two edits before one analysis: one that rewrites the pass as it was, one after it in the same server. The
      // changed stretch covers both, so the finding on the pass cannot be moved (its end is not known): it is decided
      // again, in the blocks linked to the edited server by the upstream's name (engine/linked-blocks.ts).
      const passStart = document.text.indexOf('http://app');
      const sizeStart = document.text.indexOf('1m;');
      const at = (offset: number) => document.textDocument.positionAt(offset);
      document.applyChanges(
        [
          { range: { start: at(passStart), end: at(passStart + 'http://app'.length) }, text: 'http://app' },
          { range: { start: at(sizeStart), end: at(sizeStart + 1) }, text: '20' },
        ],
        3,
      );
      analysis = await analyzeNow(analysis);
      expect(analysis.ranLinked).toContain('proxy-http-version');
      expect(analysis.ranWhole).not.toContain('proxy-http-version');

      // A bad flag: the directive rule finds it within the block; the keepalive rules keep theirs.
      edit('proxy_buffering', 'on', 'maybe', 4);
      analysis = await analyzeNow(analysis);
      expect(analysis.ranWhole).toEqual([]);
      expect(findingsOf('directive')).toEqual(['invalid value "maybe" in "proxy_buffering" directive: use on, off']);
      expect(findingsOf('proxy-http-version')).toHaveLength(1);

      // A header the keepalive rules read: they run again on the edited server, the upstream it names and that
      // upstream's other users, in the two files; the directive rule still only within the block.
      edit('proxy_set_header', 'Host $host', 'Connection ""', 5);
      analysis = await analyzeNow(analysis);
      // Rules that can look within a block (directive, lone-carriage-return) still run only there.
      const declaring = rules.filter((rule) => !rule.detectWithin && rule.readsAcrossBlocks).map((rule) => rule.meta.id);
      expect(declaring).toContain('upstream-keepalive');
      expect(analysis.ranLinked).toEqual(declaring);
      expect(analysis.ranWhole).toEqual(rules.filter((rule) => !rule.detectWithin && !rule.readsAcrossBlocks).map((rule) => rule.meta.id));

      // The fix: proxy_http_version in the first server; a line more, so every rule runs.
      edit('proxy_buffering', 'proxy_buffering maybe;', 'proxy_buffering on;\n        proxy_http_version 1.1;', 6);
      analysis = await analyzeNow(analysis);
      expect(analysis.ranWhole).toBeUndefined();
      expect(findingsOf('proxy-http-version')).toEqual([]);
      expect(findingsOf('directive')).toEqual([]);
    } finally {
      document.dispose();
    }
  });

  it('re-decides a port on an upstream{} name at every pass when the edit renames the upstream', async () => {
    const text = 'upstream backend { server 127.0.0.1:3000; keepalive 8; }\nserver {\n    listen 8080;\n    location / { proxy_pass http://backend:8000; proxy_http_version 1.1; proxy_set_header Connection ""; }\n}\n';
    const { document, analyzeNow, edit } = session(text);
    const refused = ['upstream "backend" may not have port 8000: remove the port from proxy_pass'];
    try {
      let analysis = await analyzeNow();
      const findingsOf = (ruleId: string) => analysis.findings.filter((finding) => finding.ruleId === ruleId).map((finding) => finding.message);
      expect(findingsOf('directive')).toEqual(refused);
      edit('upstream', 'backend', 'backenx', 2);
      analysis = await analyzeNow(analysis);
      expect(findingsOf('directive')).toEqual([]);
      edit('upstream', 'backenx', 'backend', 3);
      analysis = await analyzeNow(analysis);
      expect(findingsOf('directive')).toEqual(refused);
      // The pass's port, within its location: the directive rule re-decides it there (the keepalive rules read it too).
      edit('proxy_pass', '8000', '8001', 4);
      analysis = await analyzeNow(analysis);
      expect(analysis.ranWhole).toBeDefined();
      expect(analysis.ranWhole).not.toContain('directive');
      expect(findingsOf('directive')).toEqual(['upstream "backend" may not have port 8001: remove the port from proxy_pass']);
    } finally {
      document.dispose();
    }
  });

  it('re-decides an upstream and its users only when a keepalive is commented out, and keeps the other servers\' findings', async () => {
    const apps = [0, 1, 2].flatMap((n) => [
      `upstream app_${n} {`,
      `    server 127.0.0.1:${3000 + n};`,
      '    keepalive 8;',
      '}',
      'server {',
      `    listen ${8000 + n};`,
      `    location / { proxy_pass http://app_${n}; proxy_http_version 1.1; proxy_set_header Connection ""; }`,
      `    location /api/ { proxy_pass http://app_${n}; }`,
      '}',
    ]);
    const { document, analyzeNow, edit } = session(`${apps.join('\n')}\n`);
    try {
      let analysis = await analyzeNow();
      const count = (ruleId: string) => analysis.findings.filter((finding) => finding.ruleId === ruleId).length;
      // Each /api/ location, whose upstream keeps connections, lacks HTTP/1.1.
      expect(count('proxy-http-version')).toBe(3);
      expect(count('upstream-keepalive')).toBe(0);
      edit('upstream app_1', 'keepalive 8;', '#eepalive 8;', 2);
      analysis = await analyzeNow(analysis);
      expect(analysis.ranLinked).toContain('upstream-keepalive');
      expect(analysis.ranLinked).toContain('proxy-http-version');
      expect(count('upstream-keepalive')).toBe(1);
      expect(count('proxy-http-version')).toBe(2);
      edit('upstream app_1', '#eepalive 8;', 'keepalive 8;', 3);
      analysis = await analyzeNow(analysis);
      expect(analysis.ranLinked).toContain('upstream-keepalive');
      expect(count('upstream-keepalive')).toBe(0);
      expect(count('proxy-http-version')).toBe(3);
      // Renaming the upstream a pass names: the pass now names none (a literal host), and app_2 loses a user.
      edit('location /api/ { proxy_pass http://app_2', 'http://app_2;', 'http://app_2x;', 4);
      analysis = await analyzeNow(analysis);
      expect(analysis.ranLinked).toContain('proxy-pass-no-upstream');
      expect(count('proxy-http-version')).toBe(2);
    } finally {
      document.dispose();
    }
  });
});

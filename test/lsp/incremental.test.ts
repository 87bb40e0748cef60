// Incremental sync: the server applies each change to its text and its tree-sitter tree and re-parses with the old
// tree. Whatever the edits (multi-line, CRLF, non-BMP text, syntax errors made and mended, a 1,000-edit burst), the
// diagnostics at the end must be those of a fresh server opening the final text.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { useTempTrees } from '../cli/helpers.js';
import { LspClient, REPO_ROOT } from '../support/lsp-client.js';

const tree = useTempTrees();
afterEach(() => LspClient.stopAll());

const DOKKU = readFileSync(path.join(REPO_ROOT, 'examples/dokku/nginx.conf.sigil'), 'utf8');
const PLAIN = readFileSync(path.join(REPO_ROOT, 'examples/plain/nginx.conf'), 'utf8');

/** Deterministic pseudo-random numbers (mulberry32), so a failure replays. */
function random(seed: number): (limit: number) => number {
  let state = seed >>> 0;
  return (limit) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * limit);
  };
}

const SNIPPETS = [
  '{', '}', ';', '\n', '"', "'", 'keepalive 16;', '# 💡 a comment with a non-BMP character\n', '{{ if $.X }}', '{{ end }}',
  'upstream extra {\n    server 127.0.0.1:9;\n}\n', 'location /x/ {\n    proxy_pass http://app;\n', 'proxy_set_header Connection $http_connection;\n',
];

/** A random change to `document` (insert, delete or replace; sometimes at a position past the end, which clamps). */
function randomChange(document: TextDocument, next: (limit: number) => number, eol: string): TextDocumentContentChangeEvent {
  const length = document.getText().length;
  const start = next(length + 1);
  const kind = next(3);
  const end = kind === 0 ? start : Math.min(length, start + next(60));
  const snippet = SNIPPETS[next(SNIPPETS.length)]!.replaceAll('\n', eol);
  const text = kind === 1 ? '' : snippet;
  if (next(20) === 0) return { range: { start: { line: 99_999, character: 5 }, end: { line: 99_999, character: 9 } }, text };
  return { range: { start: document.positionAt(start), end: document.positionAt(end) }, text };
}

async function freshDiagnostics(workspace: string, file: string, text: string): Promise<Diagnostic[]> {
  const client = await LspClient.start({ workspace });
  const doc = client.open(file, text);
  const { diagnostics } = await client.diagnosticsFor(doc.uri, doc.version);
  await client.stop();
  return diagnostics;
}

interface Session {
  client: LspClient;
  uri: string;
  file: string;
  workspace: string;
  document: TextDocument;
}

async function session(name: string, text: string): Promise<Session> {
  const workspace = tree({ [name]: text });
  const file = path.join(workspace, name);
  const client = await LspClient.start({ workspace });
  const { uri, version } = client.open(file, text);
  await client.diagnosticsFor(uri, version);
  return { client, uri, file, workspace, document: TextDocument.create(uri, 'nginx', version, text) };
}

/** Sends `changes` as one didChange and applies them to the local copy the same way. */
function send(s: Session, changes: TextDocumentContentChangeEvent[]): number {
  const version = s.client.change(s.uri, changes);
  TextDocument.update(s.document, changes, version);
  return version;
}

async function expectSameAsFresh(s: Session, version: number): Promise<void> {
  const final = await s.client.diagnosticsFor(s.uri, version);
  expect(final.diagnostics).toEqual(await freshDiagnostics(s.workspace, s.file, s.document.getText()));
}

describe('random edits', () => {
  const cases = [
    { name: 'nginx.conf.sigil', text: DOKKU, eol: '\n', seed: 1 },
    { name: 'nginx.conf', text: PLAIN, eol: '\n', seed: 2 },
    { name: 'nginx.conf', text: PLAIN.replaceAll('\n', '\r\n'), eol: '\r\n', seed: 3 },
  ];
  for (const { name, text, eol, seed } of cases) {
    it(`match a full re-parse at every step: ${name}, seed ${seed}${eol === '\r\n' ? ', CRLF' : ''}`, async () => {
      const s = await session(name, text);
      // A second server kept in step with whole-text changes, which it parses from scratch.
      const full = await LspClient.start({ workspace: s.workspace });
      full.open(s.file, text);
      const next = random(seed);
      let version = 1;
      for (let step = 0; step < 40; step++) {
        version = send(s, [randomChange(s.document, next, eol)]);
        full.change(s.uri, [{ text: s.document.getText() }]);
        const [incremental, reparsed] = await Promise.all([s.client.diagnosticsFor(s.uri, version), full.diagnosticsFor(s.uri, version)]);
        expect(incremental.diagnostics).toEqual(reparsed.diagnostics);
      }
      await expectSameAsFresh(s, version);
    });

    it(`end like a fresh open: ${name}, seed ${seed + 10}, several changes per didChange, sent at once`, async () => {
      const s = await session(name, text);
      const next = random(seed + 10);
      let version = 1;
      for (let step = 0; step < 40; step++) {
        const changes: TextDocumentContentChangeEvent[] = [];
        const scratch = TextDocument.create(s.uri, 'nginx', 0, s.document.getText());
        for (let count = 1 + next(3); count > 0; count--) {
          const change = randomChange(scratch, next, eol);
          TextDocument.update(scratch, [change], 0);
          changes.push(change);
        }
        version = send(s, changes);
      }
      await expectSameAsFresh(s, version);
    });
  }

  it('a syntax error typed and then deleted comes and goes', async () => {
    const s = await session('nginx.conf', PLAIN);
    const before = s.client.latestDiagnostics(s.uri)!.diagnostics;
    const at = s.document.positionAt(PLAIN.indexOf('server {'));
    const broken = send(s, [{ range: { start: at, end: at }, text: '}' }]);
    expect((await s.client.diagnosticsFor(s.uri, broken)).diagnostics.some((d) => d.code === 'syntax')).toBe(true);
    const mended = send(s, [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '' }]);
    expect((await s.client.diagnosticsFor(s.uri, mended)).diagnostics).toEqual(before);
  });
});

describe('a burst of 1,000 edits', () => {
  it('ends with the diagnostics of the final text, never publishing an older version after a newer one', async () => {
    const s = await session('nginx.conf.sigil', DOKKU);
    // Typed one character at a time: a comment line, then a directive that fixes nothing, then deleted again in part.
    const line = DOKKU.split('\n').findIndex((l) => l.includes('proxy_set_header Connection $http_connection;'));
    let version = 1;
    for (let index = 0; index < 1000; index++) {
      const position = { line, character: index % 500 };
      const change: TextDocumentContentChangeEvent =
        index < 500
          ? { range: { start: position, end: position }, text: index === 499 ? '\n' : '#x'[index % 2]! }
          : { range: { start: { line, character: 0 }, end: { line, character: 1 } }, text: '' };
      version = send(s, [change]);
    }
    await expectSameAsFresh(s, version);
    const versions = s.client.publications.filter((p) => p.uri === s.uri).map((p) => p.version!);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    // Coalesced: the burst is analyzed a handful of times, not once per edit.
    expect(versions.length).toBeLessThan(100);
  });
});

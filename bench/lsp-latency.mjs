#!/usr/bin/env node
// Language server latency (`npm run bench:lsp`): spawns dist/server.js over stdio like an editor would, opens a
// generated 5,000-line config and a ~1 MB config, types single characters into a server_name of each (an argument no
// rule reads) and times every didChange -> publishDiagnostics of that version; then, in the 1 MB file, into a listen
// port (only the directive rule reads it) and a proxy_set_header (every keepalive rule reads it). Also the cold start
// (spawn -> first diagnostics) and the server's RSS with the 1 MB file open; then the 1 MB typing again with the
// server run as the VS Code extension runs it (its flags and environment, over node-ipc, diagnostics pulled), where
// the RSS goal is read. Prints a table against the goals; never fails on numbers.
// `measureLspLatency()` returns the same numbers for bench/run.mjs.
//   node bench/lsp-latency.mjs [--edits N]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { importTs } from '../scripts/bundle-ts.mjs';
import { measureKeepaliveEdits } from './lsp-keepalive-edits.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(root, 'dist', 'server.js');
/** How long one version's diagnostics may take before the measurement gives up (no real edit comes close). */
const PUBLISH_TIMEOUT_MS = 60_000;
export const GOALS = { p50FiveThousandLinesMs: 10, p50OneMegabyteMs: 50, coldStartMs: 300, rssBytes: 100 * 1024 * 1024 };

/** One upstream and one server with two proxied locations: 18 lines, a finding in the second location. */
function block(index) {
  return [
    `    upstream app_${index} {`,
    `        server 127.0.0.1:${3000 + (index % 1000)};`,
    '        keepalive 16;',
    '    }',
    '    server {',
    `        listen 127.0.0.1:${8000 + (index % 1000)};`,
    `        server_name app-${index}.example.com;`,
    '        location / {',
    `            proxy_pass http://app_${index};`,
    '            proxy_http_version 1.1;',
    '            proxy_set_header Connection "";',
    '            proxy_set_header Host $host;',
    '        }',
    '        location /api/ {',
    `            proxy_pass http://app_${index};`,
    '        }',
    '    }',
    '',
  ];
}

/** A config of about `lines` lines (or `bytes` bytes). */
export function generateConfig({ lines, bytes }) {
  const out = ['events {}', 'http {'];
  let size = 0;
  for (let index = 0; lines ? out.length < lines - 2 : size < bytes; index++) {
    for (const line of block(index)) {
      out.push(line);
      size += line.length + 1;
    }
  }
  out.push('}', '');
  return out.join('\n');
}

/**
 * The position right after `prefixOf(app)` in the app about a third into the file (searched from its server_name,
 * backwards for what comes before it).
 */
export function inApp(text, prefixOf, { backwards = false } = {}) {
  const app = Math.floor(text.split('server_name').length / 3);
  const from = text.indexOf(`server_name app-${app}.example.com;`);
  const prefix = prefixOf(app);
  const found = backwards ? text.lastIndexOf(prefix, from) : text.indexOf(prefix, from);
  const before = text.slice(0, found + prefix.length).split('\n');
  return { line: before.length - 1, character: before.at(-1).length };
}

/** In a server_name, before `.example`: an argument no rule reads (the previous findings are moved). */
const serverNamePlace = (text) => inApp(text, (app) => `server_name app-${app}`);
/** In a listen port: only the directive rule reads it (it re-runs within that server; the others keep theirs). */
const listenPlace = (text) => inApp(text, () => 'listen 127.0.0.1:', { backwards: true });
/** In a proxy_set_header's header name: the keepalive rules read it, so they all run again. */
const headerPlace = (text) => inApp(text, () => 'proxy_set_header Host');

/** Typing `character` at `at`, or deleting it again: the content change of one keystroke. */
export function typedChange(at, insert, character) {
  return insert
    ? { range: { start: at, end: at }, text: character }
    : { range: { start: at, end: { line: at.line, character: at.character + character.length } }, text: '' };
}

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

export class Session {
  /**
   * `pull`: the client announces textDocument/diagnostic, as VS Code does, and asks for each version's diagnostics.
   * `ipc`: the server talks over --node-ipc, the transport the VS Code extension starts it with (client/src/extension.ts).
   */
  constructor(workspace, server = SERVER, { pull = false, ipc = false, nodeFlags = [], env = {} } = {}) {
    this.pull = pull;
    this.started = performance.now();
    const options = { env: { ...process.env, ...env } };
    this.child = ipc
      ? spawn(process.execPath, [...nodeFlags, server, '--node-ipc'], { ...options, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
      : spawn(process.execPath, [...nodeFlags, server, '--stdio'], { ...options, stdio: ['pipe', 'pipe', 'inherit'] });
    this.reader = ipc ? new IPCMessageReader(this.child) : new StreamMessageReader(this.child.stdout);
    this.connection = createMessageConnection(this.reader, ipc ? new IPCMessageWriter(this.child) : new StreamMessageWriter(this.child.stdin));
    /** The last pulled report's resultId, per document (pull sessions). */
    this.resultIds = new Map();
    this.waiters = [];
    /** The last diagnostics published, per document. */
    this.latest = new Map();
    /** The next version to send, per document. */
    this.versions = new Map();
    this.connection.onNotification('textDocument/publishDiagnostics', (params) => {
      const now = performance.now();
      this.latest.set(params.uri, params.diagnostics);
      this.waiters = this.waiters.filter((waiter) => {
        if (waiter.uri !== params.uri || waiter.version !== params.version) return true;
        waiter.resolve(now);
        return false;
      });
    });
    this.connection.onRequest('workspace/configuration', (params) => params.items.map(() => ({})));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.listen();
    this.workspace = workspace;
    // When the server's next bytes arrived and how many came, per edit type() sends: the server's own part of a
    // latency, before the client reads and parses the message (bench:lsp reports both).
    this.firstByteAt = undefined;
    this.bytesSince = 0;
    this.child.stdout?.on('data', (chunk) => {
      this.firstByteAt ??= performance.now();
      this.bytesSince += chunk.length;
    });
    /** Of the last type(): the server's part of each latency (sorted) and the median bytes of an answer. */
    this.lastTyping = undefined;
  }

  async initialize() {
    const uri = pathToFileURL(this.workspace).href;
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: 'bench' }],
      capabilities: {
        workspace: { configuration: true },
        textDocument: { publishDiagnostics: { versionSupport: true }, ...(this.pull ? { diagnostic: { dynamicRegistration: false } } : {}) },
      },
    });
    this.connection.sendNotification('initialized', {});
  }

  /** Resolves with the time the diagnostics of `version` arrived. */
  published(uri, version) {
    // A server that never publishes this version fails the measurement with a reason instead of hanging it.
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter.timer !== timer);
        reject(new Error(`no diagnostics for version ${version} of ${uri} within ${PUBLISH_TIMEOUT_MS / 1000} s`));
      }, PUBLISH_TIMEOUT_MS);
      this.waiters.push({ uri, version, timer, resolve: (at) => (clearTimeout(timer), resolve(at)) });
    });
  }

  async open(file, text) {
    const uri = pathToFileURL(file).href;
    const arrived = this.pull ? undefined : this.published(uri, 1);
    this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'nginx', version: 1, text } });
    await (arrived ?? this.pulled(uri));
    return uri;
  }

  /** Pulls `uri`'s diagnostics as VS Code does (with the last answer's resultId); resolves with when they arrived. */
  async pulled(uri) {
    const report = await this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId: this.resultIds.get(uri) });
    const at = performance.now();
    if (report.kind === 'full') this.latest.set(uri, report.items);
    this.resultIds.set(uri, report.resultId);
    return at;
  }

  /** Sends one change of `uri` as `version`; resolves with when that version's diagnostics arrived (pushed or pulled). */
  edit(uri, version, change) {
    const arrived = this.pull ? undefined : this.published(uri, version);
    this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    return arrived ?? this.pulled(uri);
  }

  /**
   * Types `count` characters at `place` (by default into a server_name about a third into the file: an argument no
   * rule reads), alternately inserting and deleting `character`: one latency per edit.
   */
  async type(uri, text, count, place = serverNamePlace, character = 'x') {
    const at = place(text);
    const times = [];
    const serverTimes = [];
    const bytes = [];
    const first = this.versions.get(uri) ?? 2;
    for (let version = first; times.length < count; version++) {
      const change = typedChange(at, times.length % 2 === 0, character);
      this.firstByteAt = undefined;
      this.bytesSince = 0;
      const sent = performance.now();
      times.push((await this.edit(uri, version, change)) - sent);
      serverTimes.push(this.firstByteAt - sent);
      bytes.push(this.bytesSince);
    }
    this.versions.set(uri, first + count);
    this.lastTyping = { serverMs: serverTimes.sort((a, b) => a - b), bytes: percentile(bytes.sort((a, b) => a - b), 0.5) };
    return times.sort((a, b) => a - b);
  }

  /**
   * The same typing, each version's diagnostics pulled: didChange, then textDocument/diagnostic with the previous
   * answer's resultId; timed to the answer. Also counts the answers that were "unchanged" (nothing re-sent).
   */
  async typePulled(uri, text, count) {
    const at = serverNamePlace(text);
    let previousResultId = (await this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } })).resultId;
    const times = [];
    let unchanged = 0;
    for (let version = 2; version < count + 2; version++) {
      const change = typedChange(at, version % 2 === 0, 'x');
      const sent = performance.now();
      this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
      const report = await this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId });
      times.push(performance.now() - sent);
      if (report.kind === 'unchanged') unchanged++;
      previousResultId = report.resultId;
    }
    return { times: times.sort((a, b) => a - b), unchanged };
  }

  async openPulled(file, text) {
    const uri = pathToFileURL(file).href;
    this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'nginx', version: 1, text } });
    await this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    return uri;
  }

  async stats() {
    return this.connection.sendRequest('nginxKeepalive/stats');
  }

  async stop() {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.connection.sendRequest('shutdown');
    this.connection.sendNotification('exit');
    await exited;
    this.connection.dispose();
    // A message the server was still sending when it exited stays half-read, and vscode-jsonrpc re-arms a 10 s
    // "partial message" timer for it forever: without this the run printed its table and never exited.
    if (this.reader instanceof StreamMessageReader) {
      this.reader.partialMessageTimeout = 0;
      this.reader.clearPartialMessageTimer();
    }
  }
}

/** Wall time of one `node -e 0` from spawn to exit: the floor the start-up goals are stated against. */
async function nodeAloneOnceMs() {
  const started = performance.now();
  await new Promise((resolve) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).once('exit', resolve));
  return performance.now() - started;
}

/** Wall time from spawning a fresh server to the first diagnostics of `file`. */
async function coldStartOnceMs(workspace, server, file, text) {
  const cold = new Session(workspace, server);
  await cold.initialize();
  await cold.open(file, text);
  const elapsed = performance.now() - cold.started;
  await cold.stop();
  return elapsed;
}

/**
 * Medians of COLD_STARTS fresh servers' first diagnostics and as many `node -e 0`, taken in turn, so a noisy moment
 * of the machine falls on both sides of the ratio instead of on one sample of the server's (a single cold start was
 * 122 ms in one run and 166 ms in the next).
 */
const COLD_STARTS = 5;
async function startUpMs(workspace, server, file, text) {
  const node = [];
  const cold = [];
  for (let run = 0; run < COLD_STARTS; run++) {
    node.push(await nodeAloneOnceMs());
    cold.push(await coldStartOnceMs(workspace, server, file, text));
  }
  const median = (times) => percentile(times.sort((a, b) => a - b), 0.5);
  return { nodeAloneMs: median(node), coldStartMs: median(cold) };
}

/** The node flags and environment client/src/server-flags.ts gives the server the VS Code extension starts. */
async function extensionServerStart() {
  const { modules, cleanup } = await importTs('server-flags', "export { SERVER_ENV, SERVER_NODE_FLAGS } from './client/src/server-flags.ts';");
  cleanup();
  return { nodeFlags: [...modules.SERVER_NODE_FLAGS], env: { ...modules.SERVER_ENV } };
}

export function summarise(text, times) {
  return {
    lines: text.split('\n').length - 1,
    bytes: Buffer.byteLength(text),
    edits: times.length,
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
  };
}

/**
 * Measures everything in fresh server processes; `edits` per file (50 to 100 is plenty). `server`: another build's
 * server.js (`--baseline`), to compare two versions in one run.
 */
export async function measureLspLatency({ edits = 60, server = SERVER } = {}) {
  if (!existsSync(server)) throw new Error(`${server} is missing: run "npm run build" first`);
  const workspace = mkdtempSync(path.join(tmpdir(), 'nk-lsp-bench-'));
  try {
    const plain = readFileSync(path.join(root, 'examples/plain/nginx.conf'), 'utf8');
    const fiveThousand = generateConfig({ lines: 5000 });
    const megabyte = generateConfig({ bytes: 1_000_000 });
    const files = { plain: path.join(workspace, 'plain.conf'), five: path.join(workspace, 'five-thousand.conf'), mega: path.join(workspace, 'one-megabyte.conf') };
    writeFileSync(files.plain, plain);
    writeFileSync(files.five, fiveThousand);
    writeFileSync(files.mega, megabyte);

    const { nodeAloneMs, coldStartMs } = await startUpMs(workspace, server, files.plain, plain);

    const session = new Session(workspace, server);
    await session.initialize();
    const fiveUri = await session.open(files.five, fiveThousand);
    const fiveTimes = await session.type(fiveUri, fiveThousand, edits);
    session.connection.sendNotification('textDocument/didClose', { textDocument: { uri: fiveUri } });
    const megaUri = await session.open(files.mega, megabyte);
    const megaTimes = await session.type(megaUri, megabyte, edits);
    const megaAnswers = session.lastTyping;
    const { rssBytes, heapUsedBytes, externalBytes } = await session.stats();
    // Edits the rules read: a port (the directive rule re-runs within the server), a header (every keepalive rule).
    const listenTimes = await session.type(megaUri, megabyte, edits, listenPlace, '1');
    const headerTimes = await session.type(megaUri, megabyte, edits, headerPlace);
    await session.stop();

    // The same 1 MB typing with the server run as the VS Code extension runs it: its node flags and environment, over
    // node-ipc, every version's diagnostics pulled (vscode-languageclient pulls from a server that offers it).
    const { nodeFlags, env } = await extensionServerStart();
    const asVsCode = new Session(workspace, server, { nodeFlags, env, ipc: true, pull: true });
    await asVsCode.initialize();
    const vsCodeUri = await asVsCode.open(files.mega, megabyte);
    const vsCodeTimes = await asVsCode.type(vsCodeUri, megabyte, edits);
    const vsCodeStats = await asVsCode.stats();
    // Issue 30: edits to what the keepalive rules read, and how soon a changed finding shows, as VS Code starts it.
    const keepaliveEdits = await measureKeepaliveEdits(asVsCode, vsCodeUri, megabyte, edits);
    await asVsCode.stop();

    // The same typing as VS Code's client does it: pulled diagnostics.
    const pulled = new Session(workspace, server, { pull: true });
    await pulled.initialize();
    const fivePulled = await pulled.typePulled(await pulled.openPulled(files.five, fiveThousand), fiveThousand, edits);
    pulled.connection.sendNotification('textDocument/didClose', { textDocument: { uri: pathToFileURL(files.five).href } });
    const megaPulled = await pulled.typePulled(await pulled.openPulled(files.mega, megabyte), megabyte, edits);
    await pulled.stop();

    return {
      coldStartMs,
      nodeAloneMs,
      fiveThousandLines: summarise(fiveThousand, fiveTimes),
      oneMegabyte: summarise(megabyte, megaTimes),
      // The server's part: didChange -> the first byte of its answer; the rest is the client reading and parsing it.
      oneMegabyteServer: { p50Ms: percentile(megaAnswers.serverMs, 0.5), p95Ms: percentile(megaAnswers.serverMs, 0.95), answerBytes: megaAnswers.bytes },
      oneMegabyteListen: summarise(megabyte, listenTimes),
      oneMegabyteHeader: summarise(megabyte, headerTimes),
      rssBytesWithOneMegabyteOpen: rssBytes,
      asVsCode: { nodeFlags, env, oneMegabyte: summarise(megabyte, vsCodeTimes), rssBytes: vsCodeStats.rssBytes, ...keepaliveEdits },
      heapUsedBytesWithOneMegabyteOpen: heapUsedBytes,
      externalBytesWithOneMegabyteOpen: externalBytes,
      pull: {
        fiveThousandLines: summarise(fiveThousand, fivePulled.times),
        oneMegabyte: summarise(megabyte, megaPulled.times),
        unchangedShare: `${fivePulled.unchanged + megaPulled.unchanged}/${2 * edits}`,
      },
      goals: GOALS,
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

function printTable(result) {
  const ms = (value) => `${value.toFixed(1)} ms`;
  const verdict = (value, goal) => (value <= goal ? 'ok' : 'over');
  const rows = [
    ['didChange -> diagnostics p50, 5,000 lines', ms(result.fiveThousandLines.p50Ms), `<= ${GOALS.p50FiveThousandLinesMs} ms`, verdict(result.fiveThousandLines.p50Ms, GOALS.p50FiveThousandLinesMs)],
    ['didChange -> diagnostics p95, 5,000 lines', ms(result.fiveThousandLines.p95Ms), '', ''],
    [`didChange -> diagnostics p50, ${(result.oneMegabyte.bytes / 1e6).toFixed(2)} MB`, ms(result.oneMegabyte.p50Ms), `<= ${GOALS.p50OneMegabyteMs} ms`, verdict(result.oneMegabyte.p50Ms, GOALS.p50OneMegabyteMs)],
    [`didChange -> diagnostics p95, ${(result.oneMegabyte.bytes / 1e6).toFixed(2)} MB`, ms(result.oneMegabyte.p95Ms), '', ''],
    [`  the server's part (to the first byte of a ${(result.oneMegabyteServer.answerBytes / 1e6).toFixed(1)} MB answer): p50 / p95`, `${ms(result.oneMegabyteServer.p50Ms)} / ${ms(result.oneMegabyteServer.p95Ms)}`, '', ''],
    ['  typing in a listen port instead: p50 / p95', `${ms(result.oneMegabyteListen.p50Ms)} / ${ms(result.oneMegabyteListen.p95Ms)}`, `<= ${GOALS.p50OneMegabyteMs} ms`, verdict(result.oneMegabyteListen.p50Ms, GOALS.p50OneMegabyteMs)],
    ['  typing in a proxy_set_header instead: p50 / p95', `${ms(result.oneMegabyteHeader.p50Ms)} / ${ms(result.oneMegabyteHeader.p95Ms)}`, `<= ${GOALS.p50OneMegabyteMs} ms`, verdict(result.oneMegabyteHeader.p50Ms, GOALS.p50OneMegabyteMs)],
    ['cold start (spawn -> first diagnostics)', ms(result.coldStartMs), `< ${GOALS.coldStartMs} ms`, verdict(result.coldStartMs, GOALS.coldStartMs)],
    ['RSS with the 1 MB file open', `${(result.rssBytesWithOneMegabyteOpen / 1024 / 1024).toFixed(1)} MB`, `< ${GOALS.rssBytes / 1024 / 1024} MB`, verdict(result.rssBytesWithOneMegabyteOpen, GOALS.rssBytes)],
    ['  of which V8 heap in use / outside the heap', `${(result.heapUsedBytesWithOneMegabyteOpen / 2 ** 20).toFixed(1)} / ${(result.externalBytesWithOneMegabyteOpen / 2 ** 20).toFixed(1)} MB`, '', ''],
    [`run as VS Code runs it (${result.asVsCode.nodeFlags.join(' ')}, node-ipc, pulled): 1 MB p50 / RSS`, `${ms(result.asVsCode.oneMegabyte.p50Ms)} / ${(result.asVsCode.rssBytes / 1024 / 1024).toFixed(1)} MB`, '', verdict(result.asVsCode.rssBytes, GOALS.rssBytes)],
    ...(result.asVsCode.changedFinding
      ? [
          ['  as VS Code, typing in a proxy_pass / keepalive / upstream member: p50', ['proxyPass', 'keepalive', 'upstreamMember'].map((k) => ms(result.asVsCode[k].p50Ms)).join(' / '), `<= ${GOALS.p50OneMegabyteMs} ms`, ''],
          ['  as VS Code, a keepalive commented out: changed finding p50 / p95', `${ms(result.asVsCode.changedFinding.p50Ms)} / ${ms(result.asVsCode.changedFinding.p95Ms)}`, '<= 100 ms', verdict(result.asVsCode.changedFinding.p95Ms, 100)],
          ['  as VS Code, RSS after those edits too', `${(result.asVsCode.rssBytesAfterKeepaliveEdits / 2 ** 20).toFixed(1)} MB`, `< ${GOALS.rssBytes / 2 ** 20} MB`, verdict(result.asVsCode.rssBytesAfterKeepaliveEdits, GOALS.rssBytes)],
          ['  as VS Code, 1 s later (at rest): RSS / V8 heap in use', `${(result.asVsCode.rssBytesAtRest / 2 ** 20).toFixed(1)} / ${(result.asVsCode.heapUsedBytesAtRest / 2 ** 20).toFixed(1)} MB`, `< ${GOALS.rssBytes / 2 ** 20} MB`, verdict(result.asVsCode.rssBytesAtRest, GOALS.rssBytes)],
        ]
      : []),
    ['node -e 0 (spawn -> exit), for the start-up goals', ms(result.nodeAloneMs), '', ''],
    ['pulled (VS Code): p50 5,000 lines / 1 MB', `${ms(result.pull.fiveThousandLines.p50Ms)} / ${ms(result.pull.oneMegabyte.p50Ms)}`, '', `${result.pull.unchangedShare} unchanged`],
  ];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
  console.log(`(${result.fiveThousandLines.edits} edits per file, one character each)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const editsArg = process.argv.indexOf('--edits');
  const edits = editsArg === -1 ? 60 : Number(process.argv[editsArg + 1]);
  const baselineArg = process.argv.indexOf('--baseline');
  const current = await measureLspLatency({ edits });
  printTable(current);
  if (baselineArg !== -1) {
    // Another build's dist/server.js, measured right after in the same run: the ratio is what to read, not the times.
    const baseline = await measureLspLatency({ edits, server: path.resolve(process.argv[baselineArg + 1]) });
    console.log(`\nbaseline ${process.argv[baselineArg + 1]}:`);
    printTable(baseline);
    const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
    console.log(
      `\nbaseline / current p50: 5,000 lines ${ratio(baseline.fiveThousandLines.p50Ms, current.fiveThousandLines.p50Ms)}, ` +
        `1 MB ${ratio(baseline.oneMegabyte.p50Ms, current.oneMegabyte.p50Ms)}, ` +
        `1 MB listen port ${ratio(baseline.oneMegabyteListen.p50Ms, current.oneMegabyteListen.p50Ms)}, ` +
        `1 MB proxy_set_header ${ratio(baseline.oneMegabyteHeader.p50Ms, current.oneMegabyteHeader.p50Ms)}`,
    );
  }
}

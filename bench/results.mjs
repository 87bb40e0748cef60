// Turns the sections' measurements into tables: printed as text, and written as Markdown to bench/RESULTS.md.
import { markdownTable, ms, seconds, textTable } from './measure.mjs';
import { MODEL_HEAP_GOAL_BYTES_PER_CHAR } from './model-heap.mjs';

const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
const ratio = (x) => (x >= 10 ? `${x.toFixed(0)}×` : `${x.toFixed(1)}×`);

/** Each section's tables: { title, head, rows, notes }. */
export function tablesOf(results) {
  const tables = [];
  const { throughput, cold, scaling, parser, modelHeap, lsp, seed } = results;
  if (throughput) tables.push(throughputTable(throughput));
  if (cold) tables.push(coldTable(cold));
  if (scaling) tables.push(...scaling.map(scalingTable), scalingSummary(scaling));
  if (parser) tables.push(parserTable(parser));
  if (modelHeap) tables.push(modelHeapTable(modelHeap));
  if (lsp) tables.push(lspTable(lsp));
  if (seed) tables.push(seedTable(seed));
  return tables;
}

/** The fastest peer by wall time; with role 'linter', the fastest of those that analyze as we do. */
export function fastestPeer(throughput, role) {
  return throughput.rows.filter((row) => !row.ours && (!role || row.role === role)).sort((a, b) => a.wall - b.wall)[0];
}

/** The row of a named peer (gixy-ng), or of the Rust peer. */
export function peerRow(throughput, which) {
  return throughput.rows.find((row) => !row.ours && (which === 'rust' ? row.rust : row.name === which));
}

/** How many times faster `row` is than `peer`: wall / CPU. */
const versus = (peer, row) => (peer ? `${ratio(peer.wall / row.wall)} / ${ratio(peer.cpu / row.cpu)}` : '-');

function throughputTable(t) {
  const fastest = fastestPeer(t);
  const fastestLinter = fastestPeer(t, 'linter');
  const gixy = peerRow(t, 'gixy-ng');
  const rust = peerRow(t, 'rust');
  const rows = t.rows.map((row) => [
    row.ours ? `**${row.name}**` : `${row.name} ${row.version}${row.role === 'parser' ? ' (parser only)' : ''}`,
    seconds(row.wall),
    seconds(row.cpu),
    `${(t.bytes / 1e6 / row.wall).toFixed(2)}`,
    (row.cpu / row.wall).toFixed(2),
    fastest ? ratio(fastest.wall / row.wall) : '-',
    fastestLinter ? ratio(fastestLinter.wall / row.wall) : '-',
    versus(gixy, row),
    versus(rust, row),
    row.ours || row.rust ? `${row.reported ?? '?'} files reported` : row.failed === undefined ? '' : `failed on ${row.failed} files`,
  ]);
  const notes = [
    ...t.rows.filter((row) => row.note).map((row) => `${row.name}: ${row.note}.`),
    'cores busy: CPU time over wall time (V8’s garbage-collector and compiler threads count too).',
    'vs X: X’s time over this row’s (above 1: this row is faster), wall and CPU.',
    ...(rust ? [] : ['Rust peer: not measured (set NGINX_LINT_BIN to a build of walf443/nginx-lint; bench/README.md).']),
  ];
  return {
    title: `Corpus throughput: ${t.files} files, ${mb(t.bytes)} in one process per tool (median of ${t.runs} runs)`,
    head: ['tool', 'wall s', 'CPU s', 'MB/s', 'cores busy', 'vs fastest peer', 'vs fastest linter', 'vs gixy-ng (wall / CPU)', 'vs Rust peer (wall / CPU)', 'notes'],
    rows,
    notes,
  };
}

function coldTable(c) {
  return {
    title: `Cold per-file runs: one process per file, ${c.count} files (as a pre-commit hook runs), median of ${c.rounds ?? 1} rotated rounds`,
    head: ['tool', 'ms per file (wall)', 'ms per file (CPU)'],
    rows: c.rows.map((row) => [row.ours ? `**${row.name}**` : row.name, ms(row.perFileMs), ms(row.cpuPerFileMs)]),
    notes: [],
  };
}

function scalingTable(s) {
  return {
    title: `Scaling: ${s.name}`,
    head: [s.unit === 'MB' ? 'size' : 'files', 'wall s', 'CPU s'],
    rows: s.points.map((p) => [p.label, seconds(p.wall), seconds(p.cpu)]),
    notes: [],
  };
}

const exponent = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');

/** Super-linear: the fit, or the step between the two largest inputs, clearly above 1 (10% noise moves it ~0.1). */
export function superLinear(s) {
  return s.exponent > 1.15 || s.tailExponent > 1.15;
}

function scalingSummary(all) {
  return {
    title: 'Scaling summary: CPU time minus start-up against size, log-log least squares over the top two decades (1.00 = linear)',
    head: ['series', 'exponent', 'points fitted', 'last step', 'CPU per unit at the largest'],
    rows: all.map((s) => [s.name, exponent(s.exponent), String(s.fitted), exponent(s.tailExponent), `${ms(s.perUnitMs)} ms/${s.unit}`]),
    notes: all.filter(superLinear).map((s) => `${s.name}: super-linear (exponent ${exponent(s.exponent)}, last step ${exponent(s.tailExponent)}).`),
  };
}

function parserTable(rows) {
  return {
    title: 'Parser and analyze() in process',
    head: ['case', 'size', 'runs', 'median ms', 'min ms', 'MB/s'],
    rows: rows.map((r) => [
      r.name, mb(r.bytes), String(r.runs), ms(r.median), ms(r.min),
      r.perByte === false ? '-' : (r.bytes / 1e6 / (r.median / 1000)).toFixed(1),
    ]),
    notes: [],
  };
}

function modelHeapTable(rows) {
  return {
    title: 'Model heap per input character (bench/model-heap.mjs)',
    head: ['input', 'files (read as plain text)', 'characters', 'model heap', 'bytes per character', 'goal', ''],
    rows: rows.map((r) => [
      r.name, `${r.files} (${r.plain})`, String(r.chars), mb(r.bytes), r.bytesPerChar.toFixed(1),
      `< ${MODEL_HEAP_GOAL_BYTES_PER_CHAR}`, r.bytesPerChar < MODEL_HEAP_GOAL_BYTES_PER_CHAR ? 'met' : 'not met',
    ]),
    notes: ['V8 heap after full collections, models alive, texts and trees not counted (Node 20 has no pointer compression: 8 bytes per field).'],
  };
}

/** bench/lsp-latency.mjs's measureLspLatency() result, against its own goals; a note when it was not run. */
function lspTable(lsp) {
  const title = 'Editor latency (language server over stdio; as VS Code runs it, over node-ipc; bench/lsp-latency.mjs)';
  if (lsp.skipped) return { title, head: ['note'], rows: [[lsp.skipped]], notes: [] };
  const goals = lsp.goals ?? {};
  const verdict = (value, goal) => (goal === undefined ? '' : value <= goal ? 'met' : 'not met');
  const typing = (label, result, goal) => [
    [`didChange → diagnostics p50, ${label}`, `${ms(result.p50Ms)} ms`, goal === undefined ? '' : `≤ ${goal} ms`, verdict(result.p50Ms, goal)],
    [`didChange → diagnostics p95, ${label}`, `${ms(result.p95Ms)} ms`, '', ''],
  ];
  const rssMb = lsp.rssBytesWithOneMegabyteOpen / 2 ** 20;
  const rows = [
    ...typing('5,000 lines', lsp.fiveThousandLines, goals.p50FiveThousandLinesMs),
    ...typing(`${mb(lsp.oneMegabyte.bytes ?? 1e6)} file`, lsp.oneMegabyte, goals.p50OneMegabyteMs),
    ...(lsp.oneMegabyteServer
      ? [[
          `of which the server's part (to the first byte of its ${mb(lsp.oneMegabyteServer.answerBytes)} answer), p50 / p95`,
          `${ms(lsp.oneMegabyteServer.p50Ms)} / ${ms(lsp.oneMegabyteServer.p95Ms)} ms`, '', '',
        ]]
      : []),
    ...(lsp.oneMegabyteListen
      ? [
          ...typing(`${mb(lsp.oneMegabyte.bytes ?? 1e6)} file, a listen port`, lsp.oneMegabyteListen, goals.p50OneMegabyteMs),
          ...typing(`${mb(lsp.oneMegabyte.bytes ?? 1e6)} file, a proxy_set_header`, lsp.oneMegabyteHeader, goals.p50OneMegabyteMs),
        ]
      : []),
    ['cold start (spawn → first diagnostics)', `${ms(lsp.coldStartMs)} ms`, goals.coldStartMs ? `< ${goals.coldStartMs} ms` : '', verdict(lsp.coldStartMs, goals.coldStartMs)],
    ['RSS with the 1 MB file open', `${rssMb.toFixed(1)} MB`, goals.rssBytes ? `< ${goals.rssBytes / 2 ** 20} MB` : '', verdict(lsp.rssBytesWithOneMegabyteOpen, goals.rssBytes)],
  ];
  if (lsp.asVsCode) {
    const { nodeFlags, oneMegabyte, rssBytes } = lsp.asVsCode;
    rows.push(
      [`run as VS Code runs it (${nodeFlags.join(' ')}, node-ipc, pulled): 1 MB p50`, `${ms(oneMegabyte.p50Ms)} ms`, goals.p50OneMegabyteMs ? `≤ ${goals.p50OneMegabyteMs} ms` : '', verdict(oneMegabyte.p50Ms, goals.p50OneMegabyteMs)],
      [`run as VS Code runs it: RSS with the 1 MB file open`, `${(rssBytes / 2 ** 20).toFixed(1)} MB`, goals.rssBytes ? `< ${goals.rssBytes / 2 ** 20} MB` : '', verdict(rssBytes, goals.rssBytes)],
    );
    const { proxyPass, keepalive, upstreamMember, changedFinding } = lsp.asVsCode;
    if (changedFinding) {
      rows.push(
        ...typing('1 MB, a proxy_pass (as VS Code runs it)', proxyPass, goals.p50OneMegabyteMs),
        ...typing('1 MB, a keepalive count', keepalive, goals.p50OneMegabyteMs),
        ...typing('1 MB, an upstream member', upstreamMember, goals.p50OneMegabyteMs),
        [`a keepalive commented out and back: the changed finding, p50 / p95`, `${ms(changedFinding.p50Ms)} / ${ms(changedFinding.p95Ms)} ms`, '≤ 100 ms', verdict(changedFinding.p95Ms, 100)],
      );
      const { rssBytesAfterKeepaliveEdits: after, rssBytesAtRest: rest } = lsp.asVsCode;
      if (after !== undefined) rows.push(['RSS after those edits too', `${(after / 2 ** 20).toFixed(1)} MB`, goals.rssBytes ? `< ${goals.rssBytes / 2 ** 20} MB` : '', verdict(after, goals.rssBytes)]);
      if (rest !== undefined) rows.push(['the same 1 s after the last edit (at rest)', `${(rest / 2 ** 20).toFixed(1)} MB`, goals.rssBytes ? `< ${goals.rssBytes / 2 ** 20} MB` : '', verdict(rest, goals.rssBytes)]);
    }
  }
  if (lsp.nodeAloneMs !== undefined) rows.push(['node -e 0 (spawn → exit), same run', `${ms(lsp.nodeAloneMs)} ms`, '', '']);
  const edits = lsp.fiveThousandLines.edits;
  const notes = edits ? [`${edits} one-character edits per file: in a server_name (no rule reads it), then in the 1 MB file a listen port (only the directive rule reads it) and a proxy_set_header (every keepalive rule does).`] : [];
  return { title, head: ['measure', 'value', 'goal', ''], rows, notes };
}

function seedTable(seed) {
  if (seed.skipped) return { title: 'Seed experiment', head: ['note'], rows: [[seed.skipped]], notes: [] };
  const rows = seed.rows.map((r) => [
    r.variant, r.mode, r.rps.toFixed(0), String(r.upstreamConnections),
    r.upstreamConnections ? (r.upstreamRequests / r.upstreamConnections).toFixed(1) : '-',
    String(r.non2xx + r.socketErrors),
  ]);
  const notes = [];
  for (const mode of new Set(seed.rows.map((r) => r.mode))) {
    const before = seed.rows.find((r) => r.mode === mode && r.variant === 'Dokku template as shipped');
    const after = seed.rows.find((r) => r.mode === mode && r.variant === 'after check --fix');
    if (before && after && before.rps > 0) {
      notes.push(`${mode}: after/before ${ratio(after.rps / before.rps)} requests/s; upstream connections ${before.upstreamConnections} → ${after.upstreamConnections}.`);
    }
  }
  return {
    title: `Seed experiment: nginx + Dokku template in front of a 50 kB Node upstream, wrk ${seed.wrkConnections} connections, ${seed.seconds} s per run`,
    head: ['config', 'clients', 'requests/s', 'upstream connections', 'requests per upstream connection', 'errors'],
    rows,
    notes,
  };
}

export function printTables(tables) {
  for (const table of tables) {
    console.log(`\n${table.title.replace(/\*\*/g, '')}`);
    console.log(textTable(table.head, table.rows.map((row) => row.map((cell) => String(cell).replace(/\*\*/g, '')))));
    for (const note of table.notes) console.log(`  ${note}`);
  }
}

export function markdownOf(tables) {
  return tables
    .map((t) => [`### ${t.title}`, '', markdownTable(t.head, t.rows), ...(t.notes.length ? ['', ...t.notes.map((n) => `- ${n}`)] : [])].join('\n'))
    .join('\n\n');
}

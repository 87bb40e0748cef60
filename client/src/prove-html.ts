// The prove view's page: the CLI's report as a table (a before/after bar per measured location, the locations not
// measured with their reasons, the summary line), or what prove said when it could not run. Everything shown comes
// from the configuration or from nginx, so every string is escaped; the page runs no script (the webview has scripts
// off, and the content security policy allows only its own nonce'd stylesheet). Pure, without `vscode`.
import { proveRows, type ProveOutcome, type ProveRow } from './prove-report.js';

export interface PageContext {
  /** What was proved, e.g. `the workspace folder app (prove .)`. */
  subject: string;
  /** A fresh random value per render, for the stylesheet. */
  nonce: string;
  /** Extra lines shown above the table (unsaved changes prove did not see). */
  notes?: string[];
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const BAR_WIDTH = 160;

/** Two bars on one scale, the longest connection count of the report filling the width. */
function bar(row: ProveRow, scale: number): string {
  if (!row.before || !row.after) return '';
  const width = (connections: number) => Math.max(1, Math.round((connections / scale) * BAR_WIDTH));
  return (
    `<svg class="bar" width="${BAR_WIDTH}" height="18" role="img" aria-label="${row.before.connections} before, ${row.after.connections} after">` +
    `<rect class="before" x="0" y="1" height="7" width="${width(row.before.connections)}"></rect>` +
    `<rect class="after ${row.verdict}" x="0" y="10" height="7" width="${width(row.after.connections)}"></rect></svg>`
  );
}

/** Two rows per location: what it is with its numbers and bar, then what the numbers mean (a row of its own, so
 * the table stays narrow enough for a panel beside the editor). */
function rowHtml(row: ProveRow, scale: number): string {
  const measured = row.before && row.after && row.verdict !== 'skipped';
  const what =
    `<td class="what"><code class="location">${escapeHtml(row.location)}</code><br>` +
    `<span class="where">${escapeHtml(row.where)}</span> · server <span class="server">${escapeHtml(row.server)}</span></td>`;
  const numbers = measured
    ? `<td class="num before">${row.before!.connections}</td><td class="num after">${row.after!.connections}</td><td>${bar(row, scale)}</td>`
    : '<td class="num before">—</td><td class="num after">—</td><td></td>';
  const details = [
    `<span class="verdict">${escapeHtml(row.verdictText)}</span>`,
    ...(row.request && measured ? [`<span class="request">${row.before!.requests} × ${escapeHtml(row.request)}</span>`] : []),
    ...(row.statuses ? [`<span class="statuses">statuses ${escapeHtml(row.statuses)}</span>`] : []),
    ...(row.websocket ? [`<span class="websocket">WebSocket upgrade ${escapeHtml(row.websocket)}</span>`] : []),
    ...row.warnings.map((warning) => `<span class="warning">${escapeHtml(warning)}</span>`),
    ...row.why.map((line) => `<span class="why">left after the fixes: ${escapeHtml(line)}</span>`),
  ];
  return (
    `<tr class="location-row ${row.verdict}">${what}${numbers}</tr>` +
    `<tr class="details-row ${row.verdict}"><td class="details" colspan="4">${details.join('<br>')}</td></tr>`
  );
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px 16px; }
table { border-collapse: collapse; margin: 12px 0; }
th, td { text-align: left; vertical-align: top; padding: 4px 10px; }
tr.details-row td { border-bottom: 1px solid var(--vscode-panel-border, #8884); padding-bottom: 8px; }
.where, .request { color: var(--vscode-descriptionForeground); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.skipped td { color: var(--vscode-descriptionForeground); }
rect.before { fill: var(--vscode-charts-red, #d44); }
rect.after { fill: var(--vscode-charts-green, #3a3); }
rect.after.still { fill: var(--vscode-charts-orange, #d80); }
.summary { font-weight: bold; margin-top: 8px; }
.warning, .failed { color: var(--vscode-errorForeground, #c33); }
.note, .meta { color: var(--vscode-descriptionForeground); }
pre { white-space: pre-wrap; background: var(--vscode-textCodeBlock-background); padding: 8px; }
`;

function page(title: string, body: string, context: PageContext): string {
  const csp = `default-src 'none'; style-src 'nonce-${escapeHtml(context.nonce)}'; img-src 'none'; script-src 'none'`;
  return (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    `<title>${escapeHtml(title)}</title><style nonce="${escapeHtml(context.nonce)}">${STYLE}</style></head>` +
    `<body>${body}</body></html>\n`
  );
}

function notes(lines: readonly string[]): string {
  return lines.map((line) => `<p class="note">${escapeHtml(line)}</p>`).join('');
}

/** The page for a finished run; a cancelled one shows nothing (the notification says so). */
export function renderProvePage(outcome: Exclude<ProveOutcome, { kind: 'cancelled' }>, context: PageContext): string {
  const heading = `<h2>nginx-keepalive prove</h2><p class="meta">${escapeHtml(context.subject)}</p>${notes(context.notes ?? [])}`;
  if (outcome.kind === 'failed') {
    const status = outcome.status === null ? '' : ` (exit ${outcome.status})`;
    return page(
      'prove could not run',
      `${heading}<p class="failed">prove could not run${status}:</p><pre class="error">${escapeHtml(outcome.message)}</pre>`,
      context,
    );
  }
  const { report } = outcome;
  const rows = proveRows(report);
  // A fold, not Math.max(...all): a report may have more locations than a call has room for arguments.
  const scale = rows.reduce((most, row) => (row.before && row.after ? Math.max(most, row.before.connections, row.after.connections) : most), 1);
  const version = report.nginx.version ? ` ${report.nginx.version}` : '';
  const meta =
    `<p class="meta">nginx${escapeHtml(version)} (${escapeHtml(report.nginx.binary)}), ${report.requests} requests per location, ` +
    `${report.concurrency} in flight; reuse: at most ${report.bound} upstream connections after the fixes` +
    `${report.unsafeFixes ? ' (unsafe fixes included)' : ''}</p>`;
  const head =
    '<thead><tr><th>location</th><th class="num">before</th><th class="num">after</th><th>upstream connections</th></tr></thead>';
  const table = rows.length > 0 ? `<table>${head}<tbody>${rows.map((row) => rowHtml(row, scale)).join('')}</tbody></table>` : '<p>no location reaches an upstream</p>';
  const failing = outcome.status === 1 ? '<p class="warning">a location still loses its connections, or the fixes changed what it answers (exit 1)</p>' : '';
  return page(
    'prove',
    `${heading}${meta}${table}<p class="summary">${escapeHtml(report.summary)}</p>${failing}${notes(outcome.notes)}`,
    context,
  );
}

// Issue 30's editor goals beyond a server_name: typing in the 1 MB file where the keepalive rules read (a
// proxy_pass's upstream name, a keepalive's count, an upstream member's port), and how soon a changed finding shows
// after commenting out a keepalive and back (didChange -> the publishDiagnostics of that version, which must hold
// one more or one fewer upstream-keepalive finding than the version before: pushed, or pulled as VS Code does). Run
// in the session run as the VS Code extension runs the server, after its server_name typing, so its RSS is read after
// these edits too.
import { inApp, summarise, typedChange } from './lsp-latency.mjs';

/** After `http://app_N` in the app's first proxy_pass: renaming the upstream it reaches. */
const proxyPassPlace = (text) => inApp(text, (app) => `proxy_pass http://app_${app}`);
/** After `keepalive 1` in the app's upstream (typing `keepalive 116`). */
const keepalivePlace = (text) => inApp(text, () => 'keepalive 1', { backwards: true });
/** In the port of the app's upstream member, `server 127.0.0.1:3…`. */
const memberPlace = (text) => inApp(text, () => 'server 127.0.0.1:', { backwards: true });
/** The start of the app's `keepalive 16;`: a `#` there comments it out. */
const keepaliveStart = (text) => {
  const at = inApp(text, () => 'keepalive 16;', { backwards: true });
  return { line: at.line, character: at.character - 'keepalive 16;'.length };
};

/** How long after the last edit the server counts as at rest (it collects its garbage 400 ms into a pause). */
export const REST_MS = 1000;

const keepaliveFindings = (session, uri) => (session.latest.get(uri) ?? []).filter((d) => d.code === 'upstream-keepalive').length;

/** `count` edits of each kind into the open 1 MB document `uri` of `session`; p50 and p95 of each. */
export async function measureKeepaliveEdits(session, uri, text, count) {
  const typed = {};
  for (const [name, place, character] of [
    ['proxyPass', proxyPassPlace, 'x'],
    ['keepalive', keepalivePlace, '1'],
    ['upstreamMember', memberPlace, '1'],
  ]) {
    typed[name] = summarise(text, await session.type(uri, text, count, place, character));
  }
  const at = keepaliveStart(text);
  const times = [];
  let unchangedFindings = 0;
  let version = session.versions.get(uri) ?? 2;
  for (let edit = 0; edit < Math.max(10, Math.floor(count / 3)); edit++, version++) {
    const before = keepaliveFindings(session, uri);
    const sent = performance.now();
    times.push((await session.edit(uri, version, typedChange(at, edit % 2 === 0, '#'))) - sent);
    if (Math.abs(keepaliveFindings(session, uri) - before) !== 1) unchangedFindings++;
  }
  session.versions.set(uri, version);
  const rss = (await session.stats()).rssBytes;
  // What a user sees once typing stopped: the server collects its garbage in a pause (lsp/idle-collection.ts).
  await new Promise((resolve) => setTimeout(resolve, REST_MS));
  const rest = await session.stats();
  return {
    ...typed,
    changedFinding: { ...summarise(text, times.sort((a, b) => a - b)), unchangedFindings },
    rssBytesAfterKeepaliveEdits: rss,
    rssBytesAtRest: rest.rssBytes,
    heapUsedBytesAtRest: rest.heapUsedBytes,
  };
}

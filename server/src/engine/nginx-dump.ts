// Splits the output of `nginx -T` back into the files nginx read.
//
// nginx (src/core/nginx.c) writes, for every file it parsed, in the order it first opened them:
//   "# configuration file " NAME ":" LF, the file's bytes unchanged, then one LF of its own.
// The first file is the main configuration (-c). NAME is the path nginx opened: absolute, with relative includes
// already joined to the configuration prefix and globs already expanded. So every file's text is recovered byte for
// byte (the extra LF removed), and a finding in it has the line and column it has on the server.
//
// The format has no escaping: a file whose own text holds a line `# configuration file /x:` is split there. Nothing
// can tell the two apart; real configurations do not contain such a line.
import path from 'node:path';
import type { SourceDocument } from '../util/types.js';

const MARKER = '# configuration file ';

export interface NginxDump {
  /** The dump's files in nginx's order, the main configuration first; paths absolute and normalised, unique. */
  files: SourceDocument[];
}

/** The absolute path a marker line names, or undefined when `line` is not one (lines end without their LF). */
function markerPath(line: string): string | undefined {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (!text.startsWith(MARKER) || !text.endsWith(':')) return undefined;
  const name = text.slice(MARKER.length, -1);
  return name.startsWith('/') ? name : undefined;
}

/**
 * Where the dump's first marker starts, or -1 when `text` is not a dump. Lines nginx writes to stderr before the dump
 * (`nginx: the configuration file ... syntax is ok`, `nginx: [warn] ...`) are skipped, so `nginx -T 2>&1 |` works too.
 */
function firstMarker(text: string): number {
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    if (markerPath(line) !== undefined) return start;
    if (!line.startsWith('nginx: ')) return -1;
    start = end + 1;
  }
  return -1;
}

/** Whether `text` (a whole file, or its first kilobytes) is an `nginx -T` dump: its first line is a marker. */
export function isNginxDump(text: string): boolean {
  return firstMarker(text) !== -1;
}

/** The dump's files, or undefined when `text` is not a dump. Linear in the text's length. */
export function splitNginxDump(text: string): NginxDump | undefined {
  const first = firstMarker(text);
  if (first === -1) return undefined;
  const files: SourceDocument[] = [];
  const seen = new Set<string>();
  let current: string | undefined;
  let bodyStart = 0;
  const close = (bodyEnd: number) => {
    if (current === undefined) return;
    // nginx's own LF after the file's bytes (absent only when the dump was cut short).
    const end = bodyEnd > bodyStart && text[bodyEnd - 1] === '\n' ? bodyEnd - 1 : bodyEnd;
    // Older nginx versions dump a file included twice twice; the first copy is the one nginx read first.
    if (!seen.has(current)) {
      seen.add(current);
      files.push({ path: current, text: text.slice(bodyStart, end) });
    }
  };
  for (let start = first; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    // Sliced only when it may be a marker: a dump is mostly other lines.
    const name = text.startsWith(MARKER, start) ? markerPath(text.slice(start, end)) : undefined;
    if (name !== undefined) {
      close(start);
      // `include ../x.conf` is dumped as `/etc/nginx/../x.conf`; includes are resolved to normalised paths.
      current = path.posix.resolve(name);
      bodyStart = Math.min(end + 1, text.length);
    }
    start = end + 1;
  }
  close(text.length);
  return { files };
}

// How messages are written on a stream transport (--stdio, --socket, --pipe): as vscode-jsonrpc writes them
// (JSON.stringify of the message, UTF-8), except that the diagnostics an open document is sent reuse each
// diagnostic's JSON from the last time it was sent. A 1 MB file has 4,500 diagnostics, 3.5 MB of JSON: stringifying
// and encoding all of it on every keystroke cost more than analyzing the keystroke, while diagnostic-reuse.ts sends
// nearly all of them as the same objects again. The bytes are the ones JSON.stringify gives the whole message.
// (Over --node-ipc, as VS Code starts the server, node serialises the message itself.)
import { contentId, portableContentId } from '../util/content-id.js';
import { RAL, type Diagnostic } from './protocol.js';

/** Diagnostic arrays whose diagnostics are never changed once made (diagnostic-reuse.ts): their JSON may be kept. */
const reusable = new WeakSet<readonly Diagnostic[]>();
/**
 * Each kept diagnostic's JSON: the string itself when it is ASCII (nearly always: its bytes are its characters), else
 * its UTF-8 bytes. Not a Buffer each: small Buffers are slices of shared 8 KB pool slabs, so 4,500 kept diagnostics
 * held ~690 slabs (5.6 MB outside V8's heap) that outlived most of their slices; a one-byte string is its length.
 */
const encoded = new WeakMap<Diagnostic, string | Buffer>();

export function markReusable(diagnostics: readonly Diagnostic[]): void {
  reusable.add(diagnostics);
}

/** Stands for the diagnostics in the rest of the message's JSON: a string no URI holds (URIs escape control characters). */
const MARKER = '\u0000nginx-keepalive diagnostics\u0000';
const MARKER_JSON = JSON.stringify(MARKER);
const COMMA = 0x2c;

interface Carrier {
  /** The object holding the diagnostics and the key they are under. */
  holder: Record<string, unknown>;
  key: string;
}

/** Where a message carries a reusable diagnostic array: a publishDiagnostics notification, or a pulled report. */
function carrierOf(message: Record<string, unknown>): Carrier | undefined {
  const params = message.params as Record<string, unknown> | undefined;
  if (message.method === 'textDocument/publishDiagnostics' && params && reusable.has(params.diagnostics as Diagnostic[])) {
    return { holder: params, key: 'diagnostics' };
  }
  const result = message.result as Record<string, unknown> | undefined | null;
  if (result && typeof result === 'object' && reusable.has(result.items as Diagnostic[])) return { holder: result, key: 'items' };
  return undefined;
}

function diagnosticJson(diagnostic: Diagnostic): string | Buffer {
  let kept = encoded.get(diagnostic);
  if (kept === undefined) {
    const json = JSON.stringify(diagnostic);
    kept = Buffer.byteLength(json, 'utf8') === json.length ? json : Buffer.from(json, 'utf8');
    encoded.set(diagnostic, kept);
  }
  return kept;
}

/** Writes a kept JSON at `offset` of `bytes`; returns how many bytes it took. An ASCII string's latin1 bytes are its UTF-8. */
function writeJson(bytes: Buffer, offset: number, kept: string | Buffer): number {
  return typeof kept === 'string' ? bytes.write(kept, offset, kept.length, 'latin1') : kept.copy(bytes, offset);
}

/**
 * Each diagnostic's own id (util/content-id.ts portableContentId of its JSON: two 53-bit lanes, no node:crypto call
 * per diagnostic), kept apart from its JSON: a pull delivery (VS Code's) names the diagnostics with these and never
 * sends the JSON, so keeping the JSON for them held 3.5 MB of strings with a 1 MB file open for nothing.
 */
const diagnosticIds = new WeakMap<Diagnostic, string>();

function diagnosticId(diagnostic: Diagnostic, keep: boolean): string {
  let id = keep ? diagnosticIds.get(diagnostic) : undefined;
  if (id === undefined) {
    const kept = encoded.get(diagnostic);
    id = portableContentId(kept === undefined ? JSON.stringify(diagnostic) : typeof kept === 'string' ? kept : kept.toString('utf8'));
    if (keep) diagnosticIds.set(diagnostic, id);
  }
  return id;
}

/**
 * The id of a diagnostic list (a pulled report's resultId): contentId of its diagnostics' ids joined. Equal lists,
 * equal ids; a reusable array's diagnostics (never changed once made) keep theirs, and diagnostic-reuse.ts sends
 * nearly all of them again: a keystroke in a 1 MB file joins 4,500 short ids instead of stringifying 3.5 MB of JSON.
 */
export function diagnosticsId(diagnostics: readonly Diagnostic[]): string {
  const keep = reusable.has(diagnostics);
  const ids = new Array<string>(diagnostics.length);
  for (let index = 0; index < diagnostics.length; index++) ids[index] = diagnosticId(diagnostics[index]!, keep);
  return contentId(ids.join(','));
}

/** The message as JSON, UTF-8: the same bytes as Buffer.from(JSON.stringify(message)). */
export function encodeMessage(message: unknown): Buffer {
  const carrier = message && typeof message === 'object' ? carrierOf(message as Record<string, unknown>) : undefined;
  if (!carrier) return Buffer.from(JSON.stringify(message), 'utf8');
  const { holder, key } = carrier;
  const diagnostics = holder[key] as Diagnostic[];
  // The message without the diagnostics, the marker where they go; the holder is put back as it was at once.
  holder[key] = MARKER;
  let outline: string;
  try {
    outline = JSON.stringify(message);
  } finally {
    holder[key] = diagnostics;
  }
  const at = outline.lastIndexOf(MARKER_JSON);
  const before = Buffer.from(outline.slice(0, at), 'utf8');
  const after = Buffer.from(outline.slice(at + MARKER_JSON.length), 'utf8');
  const parts = diagnostics.map(diagnosticJson);
  let length = before.length + after.length + 2 + Math.max(0, parts.length - 1);
  for (const part of parts) length += part.length;
  const bytes = Buffer.allocUnsafe(length);
  let offset = before.copy(bytes, 0);
  bytes[offset++] = 0x5b; // [
  for (let index = 0; index < parts.length; index++) {
    if (index > 0) bytes[offset++] = COMMA;
    offset += writeJson(bytes, offset, parts[index]!);
  }
  bytes[offset++] = 0x5d; // ]
  after.copy(bytes, offset);
  return bytes;
}

/**
 * Makes encodeMessage() the JSON encoder of every stream message writer made from now on: vscode-jsonrpc's writers
 * take it from its runtime (RAL) when made, and createConnection() makes them from the command line's transport.
 */
export function installMessageEncoding(): void {
  const runtime = RAL();
  const encoder = {
    name: 'application/json',
    encode: (message: unknown): Promise<Uint8Array> => {
      try {
        return Promise.resolve(encodeMessage(message));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  RAL.install({ ...runtime, applicationJson: { ...runtime.applicationJson, encoder } });
}

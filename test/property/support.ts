// Shared set-up of the property tests: seeds, run budgets, the seed files, and the mutations applied to them.
//
// Budgets: `npm test` runs each property a few dozen times on a fixed small set of files, with a fixed seed (the same
// cases on every run). `npm run fuzz` sets FUZZ_RUNS (runs per property) and uses every fixture and corpus file with
// a fresh seed, printed at the start. A failure names the seed and the shrunk counterexample's path; re-run it with
//   FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run <test file>
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { compileGlob } from '../../server/src/util/glob.js';
import type { FileHost, SourceDocument } from '../../server/src/util/types.js';
import type { ConfigFile, Directive } from '../../server/src/model/types.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

const fuzzRuns = process.env.FUZZ_RUNS === undefined ? undefined : Number(process.env.FUZZ_RUNS);
/** True under `npm run fuzz`: every seed file and many runs. */
export const FUZZING = fuzzRuns !== undefined && fuzzRuns > 0;

/** Fixed for `npm test` so a failure there is reproducible as is; fresh for each fuzz session. */
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : FUZZING ? Date.now() % 2 ** 31 : 20_261_121;
const PATH = process.env.FUZZ_PATH;

/** Runs `property` `quickRuns` times (FUZZ_RUNS times when fuzzing); a failure message says how to replay it. */
export async function checkProperty<T>(name: string, property: fc.IAsyncPropertyWithHooks<T>, quickRuns: number): Promise<void> {
  const numRuns = FUZZING ? fuzzRuns! : quickRuns;
  if (FUZZING) console.log(`[fuzz] ${name}: ${numRuns} runs, seed ${SEED}`);
  try {
    await fc.assert(property, { seed: SEED, numRuns, ...(PATH === undefined ? {} : { path: PATH }), endOnFailure: !FUZZING });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const replay = /path: "([^"]*)"/.exec(message)?.[1];
    const file = path.relative(repoRoot, expect.getState().testPath ?? 'test/property');
    const hint = `reproduce: FUZZ_SEED=${SEED}${replay ? ` FUZZ_PATH=${replay}` : ''} npx vitest run ${file}`;
    throw new Error(`property "${name}" failed (seed ${SEED}); ${hint}\n${message}`, { cause: error });
  }
}

export interface SeedFile {
  /** A name for messages: the path under the repository. */
  name: string;
  text: string;
}

function read(relative: string): SeedFile {
  return { name: relative, text: readFileSync(path.join(repoRoot, relative), 'utf8') };
}

function listFiles(relativeDirectory: string, keep: (name: string) => boolean): string[] {
  const directory = path.join(repoRoot, relativeDirectory);
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The small fixed set `npm test` mutates: plain and Dokku examples, fixable fixtures of several rules, corpus files. */
const QUICK_SEEDS = [
  'examples/plain/nginx.conf',
  'examples/dokku/nginx.conf.sigil',
  'test/fixtures/connection-header-missing/invalid-websocket.conf',
  'test/fixtures/connection-map-close/invalid-docs-recipe.conf',
  'test/fixtures/keepalive-order/invalid-before-ip-hash.conf',
  'test/fixtures/proxy-set-header-inheritance/invalid-drops-connection.conf',
  'test/corpus/sigil/dokku__dokku__plugins__nginx-vhosts__templates__nginx.conf.sigil',
  'test/corpus/nginx/docker__awesome-compose__nginx-wsgi-flask__nginx__nginx.conf',
];

const isFixtureInput = (name: string) => /^(in)?valid-.*\.(conf|sigil)$/.test(name) && !name.includes('.fixed.');

/** Quick: QUICK_SEEDS. Fuzzing: every fixture input and every nginx, sigil and templated corpus file. */
export function seedFiles(): SeedFile[] {
  if (!FUZZING) return QUICK_SEEDS.map(read);
  return [
    ...QUICK_SEEDS,
    ...listFiles('test/fixtures', isFixtureInput),
    ...['test/corpus/nginx', 'test/corpus/sigil', 'test/corpus/templated'].flatMap((dir) => listFiles(dir, () => true)),
  ]
    .filter((name, index, all) => all.indexOf(name) === index)
    .map(read);
}

/** Only fixture inputs with something to fix (and the examples): what the fix properties start from. */
export function fixableSeedFiles(): SeedFile[] {
  const quick = QUICK_SEEDS.filter((name) => !name.startsWith('test/corpus/')).map(read);
  if (!FUZZING) return quick;
  return [...quick, ...listFiles('test/fixtures', (name) => isFixtureInput(name) && name.startsWith('invalid-')).map(read)];
}

/** Tokens that open, close or break nginx and Go template syntax, plus whole directives the rules care about. */
const TOKENS = [
  '{', '}', ';', '"', "'", '{{', '}}', '{{-', '-}}', '{{ if .X }}', '{{ else }}', '{{ end }}', '{{/* c */}}',
  '{{ range $x := .Y }}', '\n', '\r\n', '\r', '#', '$', '${', '\\', '(', ')', ' ', '\t', '\uFEFF', 'é', '😀',
  '\u0000', 'location / {', 'upstream u {', 'server 127.0.0.1;', 'keepalive 16;', 'proxy_pass http://u;',
  'proxy_http_version 1.0;', 'proxy_set_header Connection close;', "proxy_set_header Connection '';",
  'include x.conf;', 'include *.conf;', 'map $http_upgrade $c {', "'' close;", 'if ($x) {', 'content_by_lua_block {',
  'ip_hash;', 'fastcgi_pass u;', '# nginx-keepalive-ignore upstream-keepalive\n',
];

type ByteOp =
  | { kind: 'insert'; at: number; token: string }
  | { kind: 'bytes'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'splice'; at: number; other: number; otherAt: number };

/** UTF-16 level, after decoding: what a language client may send that UTF-8 bytes cannot hold. */
type TextOp = { kind: 'surrogate'; at: number; unit: number };

export interface Mutation {
  ops: ByteOp[];
  textOps: TextOp[];
}

const position = fc.nat({ max: 1_000_000 });
const byteOp: fc.Arbitrary<ByteOp> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: position, token: fc.constantFrom(...TOKENS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bytes' as const), at: position, bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('set' as const), at: position, value: fc.integer({ min: 0, max: 255 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), at: position, length: fc.integer({ min: 1, max: 200 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: position }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('splice' as const), at: position, other: fc.nat(), otherAt: position }) },
);
const textOp: fc.Arbitrary<TextOp> = fc.record({
  kind: fc.constant('surrogate' as const),
  at: position,
  unit: fc.constantFrom(0xd800, 0xdbff, 0xdc00, 0xdfff),
});

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  ops: fc.array(byteOp, { minLength: 1, maxLength: 6 }),
  textOps: fc.array(textOp, { maxLength: 1 }),
});

/** Directive-level edits that mostly keep a file parsing cleanly, so the fix properties see clean files too. */
const GENTLE_TOKENS = [
  '\n', ' ', '\t', '\r\n', '# comment\n', 'keepalive 16;\n', 'proxy_http_version 1.0;\n', 'proxy_http_version 1.1;\n',
  'proxy_set_header Connection close;\n', "proxy_set_header Connection '';\n", 'proxy_set_header Host $host;\n',
  'proxy_pass http://127.0.0.1:8080;\n', 'ip_hash;\n', 'upstream extra { server 127.0.0.1:9; }\n',
  'location /x { proxy_pass http://extra; }\n', '# nginx-keepalive-ignore proxy-pass-no-upstream\n',
];

export const gentleMutation: fc.Arbitrary<Mutation> = fc.record({
  ops: fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), at: position, token: fc.constantFrom(...GENTLE_TOKENS) }),
      fc.record({ kind: fc.constant('duplicate' as const), at: position, length: fc.integer({ min: 1, max: 80 }) }),
    ),
    { maxLength: 3 },
  ),
  textOps: fc.constant([]),
});

/** An insertion point on a line boundary, so a gentle token lands between statements more often than not. */
function lineStart(bytes: Buffer, at: number): number {
  const newline = bytes.lastIndexOf(0x0a, Math.max(0, at - 1));
  return newline + 1;
}

function applyByteOp(bytes: Buffer, op: ByteOp, others: readonly Buffer[]): Buffer {
  const at = op.at % (bytes.length + 1);
  switch (op.kind) {
    case 'insert': {
      const where = op.token.endsWith('\n') ? lineStart(bytes, at) : at;
      return Buffer.concat([bytes.subarray(0, where), Buffer.from(op.token, 'utf8'), bytes.subarray(where)]);
    }
    case 'bytes':
      return Buffer.concat([bytes.subarray(0, at), op.bytes, bytes.subarray(at)]);
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + op.length)]);
    case 'set': {
      if (at >= bytes.length) return bytes;
      const copy = Buffer.from(bytes);
      copy[at] = op.value;
      return copy;
    }
    case 'duplicate':
      return Buffer.concat([bytes.subarray(0, at + op.length), bytes.subarray(at)]);
    case 'truncate':
      return bytes.subarray(0, at);
    case 'splice': {
      const other = others[op.other % others.length] ?? bytes;
      return Buffer.concat([bytes.subarray(0, at), other.subarray(op.otherAt % (other.length + 1))]);
    }
  }
}

/** The mutated text, decoded as the CLI decodes a file (invalid UTF-8 becomes U+FFFD). */
export function mutate(text: string, { ops, textOps }: Mutation, others: readonly string[] = []): string {
  const otherBytes = others.map((other) => Buffer.from(other, 'utf8'));
  let bytes: Buffer = Buffer.from(text, 'utf8');
  for (const op of ops) bytes = applyByteOp(bytes, op, otherBytes);
  let result = bytes.toString('utf8');
  for (const op of textOps) {
    const at = op.at % (result.length + 1);
    result = result.slice(0, at) + String.fromCharCode(op.unit) + result.slice(at);
  }
  return result;
}

/** Where the property tests' documents live: a path nothing on disk has, so only `host` is read. */
export const VIRTUAL_DIR = '/nginx-keepalive-property/site';

/** A host serving only `docs` (for includes between them); nothing on disk is read. */
export function memoryHost(docs: readonly SourceDocument[]): FileHost {
  const files = new Map(docs.map((doc) => [path.resolve(doc.path), doc.text]));
  return {
    readFile: (file) => files.get(path.resolve(file)),
    exists: (file) => files.has(path.resolve(file)),
    glob: (pattern) => {
      const matcher = compileGlob(path.resolve(pattern), { globstar: false });
      return [...files.keys()].filter((file) => matcher.test(file)).sort();
    },
  };
}

/**
 * The model as plain data, so two builds compare with toEqual: the parent link dropped, the file link replaced by
 * whether it is this model (a statement an edited model took over must say it is in the new one).
 */
export function plainModel(file: ConfigFile) {
  const directive = (d: Directive): unknown => {
    const { parent: _parent, file: owner, children, ...rest } = d;
    return { ...rest, inThisModel: owner === file, children: children.map(directive) };
  };
  const { directives, ...rest } = file;
  return { ...rest, directives: directives.map(directive) };
}

// The one place that loads tree-sitter. Everything else gets trees from here and must delete() them.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { embeddedAsset } from '../util/sea.js';

const GRAMMAR_WASM = 'tree-sitter-nginx.wasm';
const RUNTIME_WASM = 'web-tree-sitter.wasm';

/** A parse that runs past this is abandoned: a pathological input must not hang the CLI or the language server. */
export const DEFAULT_PARSE_TIMEOUT_MS = 10_000;

export class ParseTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`parsing took longer than ${timeoutMs} ms and was abandoned`);
    this.name = 'ParseTimeoutError';
  }
}

export interface NginxParser {
  readonly language: Language;
  /** Parses `text`, reusing `oldTree` (already edited) for an incremental re-parse. The caller owns the result. */
  parse(text: string, oldTree?: Tree | null, timeoutMs?: number): Tree;
  /**
   * The same parse, run `sliceMs` at a time with the event loop let through between slices (tree-sitter resumes a
   * parse it was told to stop), so a server stays free to answer other requests during a long one. It uses a parser
   * of its own: parses on the shared one may run between its slices. `timeoutMs` counts the slices' time only.
   */
  parseInSlices(text: string, oldTree?: Tree | null, options?: { timeoutMs?: number; sliceMs?: number }): Promise<Tree>;
}

/** How long one slice of parseInSlices runs before it lets the event loop through. */
export const PARSE_SLICE_MS = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function moduleDirectory(): string {
  // Bundled as CommonJS (the language server) `__dirname` exists; as ESM (the CLI, vitest) import.meta.url does.
  if (typeof __dirname === 'string') return __dirname;
  return path.dirname(fileURLToPath(import.meta.url));
}

/** dist/ holds both wasm files next to the bundle; from source they live in grammars/ and node_modules/. */
function findWasm(fileName: string): string {
  const here = moduleDirectory();
  const repoRoot = path.resolve(here, '../../..');
  const candidates = [
    path.join(here, fileName),
    path.join(repoRoot, 'dist', fileName),
    path.join(repoRoot, 'grammars/nginx', fileName),
    path.join(repoRoot, 'node_modules/web-tree-sitter', fileName),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`cannot find ${fileName}; looked in:\n  ${candidates.join('\n  ')}`);
  return found;
}

/** Where a browser page finds the two wasm files (the playground serves them beside its script). */
export interface WasmUrls {
  runtime: string;
  grammar: string;
}

let wasmUrls: WasmUrls | undefined;

/** In a browser, before the first loadNginxParser(): fetch the wasm files from `urls` instead of reading the disk. */
export function loadWasmFrom(urls: WasmUrls): void {
  wasmUrls = urls;
}

/** The wasm runtime and the grammar: a page's URLs, the single executable's own assets, else the files on disk. */
async function loadLanguage(): Promise<Language> {
  if (wasmUrls) {
    const { runtime: runtimeUrl, grammar } = wasmUrls;
    await Parser.init({ locateFile: () => runtimeUrl });
    return Language.load(grammar);
  }
  const runtime = embeddedAsset(RUNTIME_WASM);
  if (runtime) {
    // Emscripten takes the bytes as they are and looks for no file; the grammar is an asset beside it.
    await Parser.init({ wasmBinary: runtime.buffer as ArrayBuffer });
    return Language.load(embeddedAsset(GRAMMAR_WASM)!);
  }
  await Parser.init({ locateFile: () => findWasm(RUNTIME_WASM) });
  return Language.load(readFileSync(findWasm(GRAMMAR_WASM)));
}

async function createParser(): Promise<NginxParser> {
  const language = await loadLanguage();
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    language,
    parse(text, oldTree, timeoutMs = DEFAULT_PARSE_TIMEOUT_MS) {
      const deadline = performance.now() + timeoutMs;
      const tree = parser.parse(text, oldTree ?? null, {
        progressCallback: () => performance.now() > deadline,
      });
      if (!tree) {
        parser.reset();
        throw new ParseTimeoutError(timeoutMs);
      }
      return tree;
    },
    async parseInSlices(text, oldTree, options = {}) {
      const timeoutMs = options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
      const sliceMs = options.sliceMs ?? PARSE_SLICE_MS;
      const own = new Parser();
      try {
        own.setLanguage(language);
        let spent = 0;
        for (;;) {
          const start = performance.now();
          const sliceEnd = start + Math.min(sliceMs, timeoutMs - spent);
          const tree = own.parse(text, oldTree ?? null, { progressCallback: () => performance.now() > sliceEnd });
          spent += performance.now() - start;
          if (tree) return tree;
          if (spent >= timeoutMs) throw new ParseTimeoutError(timeoutMs);
          await nextTurn();
        }
      } finally {
        own.delete();
      }
    },
  };
}

let loading: Promise<NginxParser> | undefined;
let loaded: NginxParser | undefined;

/** Loads the grammar once per process; later calls share the same parser. */
export function loadNginxParser(): Promise<NginxParser> {
  loading ??= createParser().then((parser) => (loaded = parser));
  return loading;
}

/**
 * Thrown by NOT_LOADED_PARSER: a file needs tree-sitter (a template, text the reader declines) before it was loaded.
 * analyze() then loads it and starts again; a run of plain files never loads the wasm at all.
 */
export class ParserNotLoaded extends Error {
  constructor() {
    super('the nginx parser is not loaded');
    this.name = 'ParserNotLoaded';
  }
}

/** Whether the wasm parser has been loaded in this process. */
export function nginxParserLoaded(): boolean {
  return loaded !== undefined;
}

/** The parser when loaded already; else a stand-in whose parse() throws ParserNotLoaded. */
export function parserIfLoaded(): Pick<NginxParser, 'parse'> {
  return loaded ?? NOT_LOADED_PARSER;
}

const NOT_LOADED_PARSER: Pick<NginxParser, 'parse'> = {
  parse() {
    throw new ParserNotLoaded();
  },
};

/**
 * A parser for a long-running process (the language server) that loads the wasm only when a text needs it: parse()
 * uses the loaded parser or throws ParserNotLoaded (the caller loads it with withNginxParser and starts again), and
 * parseInSlices loads it first. A server whose documents are all plain nginx never loads tree-sitter: its start-up
 * skips compiling the runtime and the grammar, and its memory the wasm heap.
 */
export function lazyNginxParser(): Pick<NginxParser, 'parse' | 'parseInSlices'> {
  return {
    parse: (text, oldTree, timeoutMs) => parserIfLoaded().parse(text, oldTree, timeoutMs),
    parseInSlices: async (text, oldTree, options) => (await loadNginxParser()).parseInSlices(text, oldTree, options),
  };
}

/** Runs `work`; if it needed the parser before it was loaded (ParserNotLoaded), loads it and runs `work` again. */
export async function withNginxParser<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ParserNotLoaded) || nginxParserLoaded()) throw error;
  }
  await loadNginxParser();
  return work();
}

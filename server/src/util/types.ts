// Shared vocabulary of every layer (util/ is the bottom one): positions, spans, edits, findings, the file host and
// the resolved options the rules read. Nothing here imports another layer, the LSP transport or vscode.

/** Zero-based line; zero-based column in UTF-16 code units (the LSP's and JavaScript's unit). */
export interface Position {
  line: number;
  column: number;
}

/** A span of source text: offsets are UTF-16 indices into the file's text, end exclusive. */
export interface Span {
  start: Position;
  end: Position;
  startOffset: number;
  endOffset: number;
}

export type Severity = 'error' | 'warning' | 'info';
export type SeveritySetting = Severity | 'off';

export interface TextEdit {
  file: string;
  startOffset: number;
  endOffset: number;
  newText: string;
}

/**
 * ruff's model: a safe fix keeps what strangers and the upstream see (it only makes nginx reuse connections); an
 * unsafe one changes it (headers sent to another origin, DNS resolved at start-up instead of at run time). `--fix`
 * applies safe fixes, `--unsafe-fixes` the rest too; the editor offers unsafe ones as non-preferred actions.
 */
export type FixSafety = 'safe' | 'unsafe';

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** Absent means safe. */
  safety?: FixSafety;
}

export interface Finding {
  ruleId: string;
  severity: Severity;
  /** The one-line headline: what is wrong and what to do (under 100 characters). */
  message: string;
  /** The why and the particulars: `--verbose`, the LSP diagnostic's related information, SARIF. */
  detail?: string;
  file: string;
  span: Span;
  /** Why no fix is offered, when the rule knows (an include it could not read, a file of unknown context). */
  withheld?: string;
  /**
   * The rule offers a fix (cheap: no edit is built to know it). JSON's fixable counts and the language server's
   * "fix all" read this.
   */
  fixable?: true;
  /** The offered fix is unsafe (known without building it): only `--unsafe-fixes` applies it. */
  unsafeFix?: true;
  /**
   * The fix's edits. On a rule's finding this is built when first read (engine/lazy-fix.ts) and is not an own
   * enumerable property, so copying or serialising a finding never builds it; it may still be undefined when the
   * edits could not be built after all.
   */
  fix?: Fix;
}

/**
 * Whether a finding offers a fix, without building it: a rule's finding says so in `fixable` (its `fix` is then
 * built when read); a finding made with its fix in hand (a suppression's) may only carry the fix.
 */
export function isFixable(finding: Finding): boolean {
  return finding.fixable === true || finding.fix !== undefined;
}

/** A document given to analyze(): its path and its current text (possibly unsaved). */
export interface SourceDocument {
  path: string;
  text: string;
  /** The file's real path, when the caller resolved it already (the CLI's discovery does): not asked of the disk again. */
  realPath?: string;
}

/** How the core reaches files it was not handed (includes). The CLI reads the disk; the LSP overlays open documents. */
export interface FileHost {
  readFile(path: string): string | undefined;
  /**
   * Absolute paths matching an nginx include glob (`*`, `?`, `[...]`), sorted as nginx does (byte order). With
   * `confinement`, nothing inside a directory it refuses is listed or tested, and the expansion is bounded.
   */
  glob(pattern: string, confinement?: GlobConfinement): string[];
  exists(path: string): boolean;
  /**
   * True for a host that is not this machine's disk (an `nginx -T` dump's files, model/virtual-host.ts): its paths
   * name files on another machine, so no symlink is resolved here to identify them and no read scope over the local
   * disk applies; the host holds exactly what may be read.
   */
  virtual?: boolean;
}

/** How far an include glob may reach, and where it tells what it left out. */
export interface GlobConfinement {
  /**
   * Asked before anything inside `directory` (or at `directory`, a match that is a link) is listed or tested; false
   * keeps the glob out (the read scope: a link leading outside the checked paths).
   */
  allows(directory: string): boolean;
  /** A directory or link matched but refused by allows(). */
  outside?(refused: string): void;
  /** At most this many paths are returned (the first ones in the order the directories were listed). */
  maxMatches?: number;
  /** At most this many directories are entered (each real directory once per pattern segment). */
  maxDirectories?: number;
  /** A bound cut the expansion short. */
  limited?(bound: 'matches' | 'directories'): void;
  /** Equal for confinements whose allows() answer alike (the same read scope): a host may reuse an expansion. */
  cacheKey?: string;
}


export interface PathMapping {
  from: string;
  to: string;
}

/** The analysis options as the rules read them (engine/options.ts resolves them from AnalyzeOptions). */
export interface ResolvedOptions {
  /** [major, minor, patch]; undefined means pre-1.29.7 defaults. */
  nginxVersion: [number, number, number] | undefined;
  keepaliveConnections: number;
  /** Directive names of third-party modules the `directive` rule takes as known (settings "directives.extra"). */
  extraDirectives?: ReadonlySet<string>;
  /** A distribution's build of nginxVersion (model/distribution-builds.ts): its backported directives count. */
  nginxBuild?: string;
}

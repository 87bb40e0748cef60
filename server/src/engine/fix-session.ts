// fixAll's texts (engine/fix-all.ts): the files fixes are applied to, once per real file, and one fix's edits by the
// session's name of their file, with the helpers that apply them to those texts.
import path from 'node:path';
import { applyEdits, orderEdits } from '../fixes/edits.js';
import { FileIdentities } from '../model/file-identity.js';
import type { FileHost, Finding, SourceDocument, TextEdit } from '../util/types.js';

export interface FixAllResult {
  /**
   * The fixed text of every file whose text changed, once per real file however many paths reach it: documents
   * under their `path` as given, included files under their absolute path (the `file` their findings carry).
   */
  texts: Map<string, string>;
  /** The text each file in `texts` had before the first fix: what a writer checks the disk against. */
  originals: Map<string, string>;
  /** The findings of the final texts, fixable ones included when their fix could not be applied. */
  remaining: Finding[];
  /** How many passes changed something (0 when no fix applied). */
  passes: number;
  /** How many fixes were applied over all passes (each resolved at least one finding): "Fixed N problems". */
  applied: number;
  /**
   * Fixes were still applying when MAX_FIX_PASSES passes had run: the texts are not at a fixed point (fixing them
   * again would change them), and `remaining` may hold fixable findings. A rule fighting another; callers say so.
   */
  hitPassLimit: boolean;
}

/**
 * The texts fixes are applied to: documents, then included files as the host reads them, overlaid by the fixes.
 * Keyed by one absolute name per real file (model/file-identity.ts): a file reached under two paths (a
 * sites-enabled link and its sites-available target) is fixed once, and its new text is what both paths read.
 *
 * Each file is read from the host once: every pass analyzes, and the writer compares the disk with, the text that
 * first read gave. Read again on each pass, an included file replaced meanwhile (by a FIFO, a deploy) changed under
 * the loop: unreadable, its fix silently did not apply and the run reported it "fixable" (exit 1), where the writer,
 * given the fix, refuses the replaced file and says so (exit 2).
 */
export class FixSession {
  private readonly identities: FileIdentities;
  /** By real path: the absolute name the file goes by here, a document's own first. */
  private readonly names = new Map<string, string>();
  /** The rest by that name. */
  private readonly documents = new Map<string, SourceDocument>();
  private readonly current = new Map<string, string>();
  /** By name: what the host gave when first asked (undefined: it could not be read then). */
  private readonly firstRead = new Map<string, string | undefined>();
  readonly originals = new Map<string, string>();
  readonly host: FileHost;

  constructor(
    private readonly docs: readonly SourceDocument[],
    private readonly baseHost: FileHost,
  ) {
    this.identities = new FileIdentities(baseHost.virtual === true);
    for (const doc of docs) {
      const name = this.nameOf(doc.path);
      if (!this.documents.has(name)) this.documents.set(name, doc);
    }
    this.host = {
      readFile: (file) => {
        const name = this.nameOf(file);
        return this.current.get(name) ?? this.readOnce(name, file);
      },
      glob: (pattern, confinement) => baseHost.glob(pattern, confinement),
      exists: (file) => baseHost.exists(file),
      virtual: baseHost.virtual,
    };
  }

  /** The absolute name `file`'s real file goes by in this session: the first it was met under. */
  nameOf(file: string): string {
    const absolute = path.resolve(file);
    const identity = this.identities.of(absolute);
    let name = this.names.get(identity);
    if (name === undefined) this.names.set(identity, (name = absolute));
    return name;
  }

  /** By name (see nameOf); undefined when the file cannot be read. */
  textOf(file: string): string | undefined {
    return this.current.get(file) ?? this.documents.get(file)?.text ?? this.readOnce(file, file);
  }

  /** The file's text as the host first gave it, read under `asked` (the path an include named). */
  private readOnce(name: string, asked: string): string | undefined {
    if (!this.firstRead.has(name)) this.firstRead.set(name, this.baseHost.readFile(asked));
    return this.firstRead.get(name);
  }

  currentDocuments(): SourceDocument[] {
    return this.docs.map((doc) => {
      const text = this.current.get(this.nameOf(doc.path));
      return text === undefined ? doc : { ...doc, text };
    });
  }

  /** Whether any of `texts` (by name) differs from the file's current text. */
  wouldChange(texts: Map<string, string>): boolean {
    for (const [file, text] of texts) if (this.textOf(file) !== text) return true;
    return false;
  }

  /** Records new texts (by name); returns false when none of them differs from what it replaces. */
  commit(texts: Map<string, string>): boolean {
    let changed = false;
    for (const [file, text] of texts) {
      const before = this.textOf(file);
      if (before === text) continue;
      if (!this.originals.has(file) && before !== undefined) this.originals.set(file, before);
      this.current.set(file, text);
      changed = true;
    }
    return changed;
  }

  /** Texts under the path a document was given by (as the caller wrote it), else the absolute name. */
  result(remaining: Finding[], passes: number, applied: number, hitPassLimit = false): FixAllResult {
    const texts = new Map<string, string>();
    const originals = new Map<string, string>();
    for (const [file, text] of this.current) {
      const original = this.originals.get(file);
      if (original === undefined || original === text) continue;
      const name = this.documents.get(file)?.path ?? file;
      texts.set(name, text);
      originals.set(name, original);
    }
    return { texts, originals, remaining, passes, applied, hitPassLimit };
  }
}

/** One fix's edits, by the session's name of their file (edits re-labelled with it so applyEdits sees one name). */
export type Candidate = Map<string, TextEdit[]>;

export function candidateOf(finding: Finding, session: FixSession): Candidate | undefined {
  const edits = finding.fix?.edits ?? [];
  if (edits.length === 0) return undefined;
  const byFile: Candidate = new Map();
  for (const edit of edits) {
    const file = session.nameOf(edit.file);
    // Appended in place: copying the list per edit made one fix of 150,000 edits (an upstream with that many users)
    // quadratic.
    const list = byFile.get(file);
    if (list) list.push({ ...edit, file });
    else byFile.set(file, [{ ...edit, file }]);
  }
  return byFile;
}

/** The texts `candidates` produce together, or undefined when their edits do not apply (out of range, overlapping). */
export function applyCandidates(candidates: readonly Candidate[], session: FixSession): Map<string, string> | undefined {
  const byFile = editsByFile(candidates);
  const texts = new Map<string, string>();
  for (const [file, edits] of byFile) {
    const base = session.textOf(file);
    if (base === undefined) return undefined;
    try {
      texts.set(file, applyEdits(base, edits));
    } catch {
      return undefined;
    }
  }
  return texts;
}

/** The candidates' edits by file. */
export function editsByFile(candidates: readonly Candidate[]): Map<string, TextEdit[]> {
  const byFile = new Map<string, TextEdit[]>();
  for (const candidate of candidates) {
    for (const [file, edits] of candidate) {
      // A loop: spreading 150,000 edits into one push call overflows the stack.
      let list = byFile.get(file);
      if (!list) byFile.set(file, (list = []));
      for (const edit of edits) list.push(edit);
    }
  }
  return byFile;
}

/** Whether applyCandidates([candidate]) would succeed, without building the texts (a fix per line of a big file). */
export function appliesAlone(candidate: Candidate, session: FixSession): boolean {
  for (const [file, edits] of candidate) {
    const base = session.textOf(file);
    if (base === undefined) return false;
    try {
      orderEdits(base, edits);
    } catch {
      return false;
    }
  }
  return true;
}

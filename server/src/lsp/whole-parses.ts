// The whole parses of long open documents, run in slices (OpenDocument.prepareModel) so that the server answers other
// documents meanwhile: started in the background by the analysis worker, or awaited by an analysis that needs one.
import type { NginxParser } from '../parser/loader.js';
import type { OpenDocument } from './open-document.js';

export class WholeParses {
  private readonly running = new Set<Promise<void>>();
  /** Documents analyzed alone while a long text of their unit was parsed (analysis-service.ts): analyzed again after. */
  readonly provisional = new Set<OpenDocument>();

  constructor(
    private readonly parser: Pick<NginxParser, 'parseInSlices'>,
    private readonly logError: (message: string) => void,
  ) {}

  /** Starts the document's parse in the background (once: a parse under way is shared). */
  start(document: OpenDocument): void {
    const parse: Promise<void> = document
      .prepareModel(this.parser)
      .catch((error: unknown) => this.logError(`parsing ${document.uri} failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => this.running.delete(parse));
    this.running.add(parse);
  }

  /** Resolves when one of the background parses ends (at once when none runs). */
  async anyDone(): Promise<void> {
    if (this.running.size > 0) await Promise.race(this.running);
  }

  /**
   * With no parse under way, moves the provisional documents into `dirty` (true when there were any); with one, waits
   * for it to end (true: the caller looks again).
   */
  async takeProvisional(dirty: Set<OpenDocument>): Promise<boolean> {
    if (this.provisional.size === 0) return false;
    if (this.running.size > 0) {
      await this.anyDone();
      return true;
    }
    for (const document of this.provisional) dirty.add(document);
    this.provisional.clear();
    return true;
  }

  /** Parses, in slices, those of `documents` whose next model needs a whole parse. */
  async prepare(documents: readonly OpenDocument[]): Promise<void> {
    const unparsed = documents.filter((document) => document.needsWholeParse);
    if (unparsed.length > 0) await Promise.all(unparsed.map((document) => document.prepareModel(this.parser)));
  }
}

// The analysis service's answers about units that need no analysis (analysis-service.ts extends this class): which
// unit a document or file is analyzed in, under which name, on which documents and with which options. Fix-all,
// workspace diagnostics and the nginx target use them to run as the document's own analysis does.
import path from 'node:path';
import type { SourceDocument } from '../util/types.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { isUnder } from '../model/read-scope.js';
import type { AnalysisDeps } from './analysis-deps.js';
import { folderOfUnit } from './analysis-units.js';
import type { OpenDocument } from './open-document.js';

export class UnitLookups {
  constructor(protected readonly deps: AnalysisDeps) {}

  /** The options analyses of a unit (or a root file) run with (fix-all reuses them). */
  analyzeOptionsFor(key: string): AnalyzeOptions {
    const { host, models, settings } = this.deps;
    const folder = folderOfUnit(key);
    const readRoots = this.readRootsFor(folder ?? key);
    if (folder === undefined) return { ...settings.settingsFor(key, readRoots), readRoots, host, models };
    const folderSettings = settings.settingsForFolder(folder, readRoots ?? [folder], this.deps.units.pathsOf(folder));
    return { ...folderSettings, readRoots, host, models };
  }

  /** The unit the document is analyzed in (analysis-units.ts). */
  rootFor(document: OpenDocument): string {
    return this.deps.units.keyOf(document.path);
  }

  /** What a unit's analysis is given (fix-all runs on the same documents). */
  documentsOf(key: string): SourceDocument[] | undefined {
    return this.deps.units.documentsOf(key);
  }

  /** The name the document has in its unit (a link's: its target's, when the folder keeps that one). */
  nameOf(document: OpenDocument): string {
    return this.deps.units.nameOf(document.path);
  }

  /** The name a file has in its unit (a link's: its target's, when the folder keeps that one). */
  nameOfFile(file: string): string {
    return this.deps.units.nameOf(file);
  }

  /** The workspace folders, plus the root's directory when it lies outside them (a file opened from elsewhere). */
  private readRootsFor(root: string): string[] | undefined {
    const folders = this.deps.index.folders;
    if (folders.length === 0) return undefined;
    return folders.some((folder) => isUnder(root, folder)) ? [...folders] : [...folders, path.dirname(root)];
  }
}

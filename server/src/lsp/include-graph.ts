// Which file each workspace file is analyzed under. A file another file includes (a snippet, a site in
// sites-enabled/) means nothing alone: its findings depend on the http{} or server{} around the include. So an open
// document included from elsewhere is analyzed with its includer as the root, as nginx itself reads it.
import path from 'node:path';
import type { FileHost, PathMapping, SourceDocument } from '../util/types.js';
import type { ConfigFile, Directive, ModelCache } from '../model/types.js';
import type { ParserLike } from '../model/file-loader.js';
import { inferRootContext } from '../model/context.js';
import { buildWorkspace } from '../model/workspace.js';
import { deepestFolder } from './paths.js';
import { mentions } from '../model/text-mentions.js';

export interface GraphInputs {
  /**
   * Every file to consider (the indexed workspace files and the open documents), in groups that each resolve
   * includes with their own pathMap: one group per workspace folder, whose settings may map differently.
   */
  groups: Array<{ documents: SourceDocument[]; pathMap: readonly PathMapping[] }>;
  host: FileHost;
  parser: ParserLike;
  models: ModelCache;
  readRoots: readonly string[] | undefined;
}

export class IncludeGraph {
  /** Included file -> the root it is analyzed under (only files some other file includes are here). */
  private rootOf = new Map<string, string>();
  /** Include arguments of each file the graph was built from, to tell whether an edit can change the graph. */
  private includeKeys = new Map<string, string>();
  private stale = true;

  get isStale(): boolean {
    return this.stale;
  }

  invalidate(): void {
    this.stale = true;
  }

  /** The root `file` is analyzed under: the includer at the top of its include chain, or the file itself. */
  rootFor(file: string): string {
    return this.rootOf.get(path.resolve(file)) ?? path.resolve(file);
  }

  /** Whether a file's includes (given as a key, see includeKeyOf) differ from those the graph was built with. */
  includesChanged(file: string, key: string): boolean {
    return (this.includeKeys.get(path.resolve(file)) ?? '') !== key;
  }

  rebuild(inputs: GraphInputs): void {
    const rootOf = new Map<string, string>();
    const includeKeys = new Map<string, string>();
    for (const group of inputs.groups) {
      // A file that never says "include" includes nothing: it is left out rather than parsed (in a workspace of large
      // generated configs, that is most of the work). It is still parsed if something includes it.
      const includers = group.documents.filter((document) => mayInclude(document.text));
      if (includers.length === 0) continue;
      const workspace = buildWorkspace(includers, inputs.host, inputs.parser, {
        pathMap: group.pathMap,
        readRoots: inputs.readRoots,
        models: inputs.models,
      });
      for (const root of workspace.roots) {
        const rootPath = path.resolve(root.file.path);
        for (const files of root.includes.values()) {
          for (const file of files) {
            const filePath = path.resolve(file.path);
            if (filePath !== rootPath && !rootOf.has(filePath)) rootOf.set(filePath, rootPath);
          }
        }
      }
      for (const file of workspace.files) includeKeys.set(path.resolve(file.path), includeKeyOf(file));
    }
    this.rootOf = rootOf;
    this.includeKeys = includeKeys;
    this.stale = false;
  }
}

/** For an open document's text, which changes under the same object (a model's answer is remembered: text-mentions.ts). */
function mayInclude(text: string): boolean {
  return text.includes('include');
}

/**
 * What of a model the graph depends on, as text: its root context (which decides the roots) and its include
 * arguments; empty for a file that cannot include anything. Equal keys mean an edit cannot have changed the graph.
 */
export function includeKeyOf(file: ConfigFile): string {
  if (!mentions(file, 'include')) return '';
  const parts: string[] = [inferRootContext(file)];
  const visit = (directives: readonly Directive[]) => {
    for (const directive of directives) {
      if (directive.name === 'include') parts.push(directive.args.map((arg) => arg.value).join(' '));
      visit(directive.children);
    }
  };
  visit(file.directives);
  return parts.join('\n');
}

/** The files grouped by the folder whose settings apply (its pathMap), files outside every folder by the window's. */
export function groupsByFolder(
  paths: Iterable<string>,
  folders: readonly string[],
  readFile: (file: string) => string | undefined,
  pathMapOf: (folder: string | undefined) => readonly PathMapping[],
): GraphInputs['groups'] {
  const groups = new Map<string, { documents: SourceDocument[]; pathMap: readonly PathMapping[] }>();
  for (const file of paths) {
    const text = readFile(file);
    if (text === undefined) continue;
    const folder = deepestFolder(file, folders);
    const key = folder ?? '';
    if (!groups.has(key)) groups.set(key, { documents: [], pathMap: pathMapOf(folder) });
    groups.get(key)!.documents.push({ path: file, text });
  }
  return [...groups.values()];
}

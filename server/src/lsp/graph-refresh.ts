// Brings the language server's include graph up to date before an analysis: a document edited since the graph was
// built may have changed its include lines (then the graph is rebuilt from the workspace index and the open
// documents); what changed is which unit each open document belongs to, so those documents are analyzed again.
import type { AnalysisDeps } from './analysis-deps.js';
import { groupsByFolder, includeKeyOf } from './include-graph.js';
import type { OpenDocument } from './open-document.js';

type GraphDeps = Pick<AnalysisDeps, 'graph' | 'documents' | 'parser' | 'units' | 'index' | 'settings' | 'host' | 'models'>;

/** Rebuilds the graph when stale (clearing `edited`); answers the open documents whose unit changed. */
export function refreshIncludeGraph(deps: GraphDeps, edited: Set<OpenDocument>): OpenDocument[] {
  const { graph, documents, parser } = deps;
  for (const document of edited) {
    if (!document.isTooLarge && graph.includesChanged(document.path, includeKeyOf(document.currentModel(parser)))) {
      graph.invalidate();
    }
  }
  edited.clear();
  if (!graph.isStale) return [];
  const before = new Map(documents.all().map((document) => [document, deps.units.keyOf(document.path)] as const));
  const folders = deps.index.folders;
  const paths = new Set([...deps.index.list(), ...documents.all().filter((d) => !d.isTooLarge).map((d) => d.path)]);
  const pathMapOf = (folder: string | undefined) =>
    deps.settings.settingsForDirectory(folder ?? folders[0] ?? '/', folders.length > 0 ? folders : undefined).pathMap ?? [];
  const groups = groupsByFolder(paths, folders, (file) => deps.host.readFile(file), pathMapOf);
  graph.rebuild({
    groups,
    host: deps.host,
    parser,
    models: deps.models,
    readRoots: folders.length > 0 ? [...folders] : undefined,
  });
  return [...before].filter(([document, key]) => deps.units.keyOf(document.path) !== key).map(([document]) => document);
}

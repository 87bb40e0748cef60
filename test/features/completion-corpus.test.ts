// Completion against nginx itself, over the corpus: in every file Debian's nginx 1.22.1 accepts (`nginx -t` in the
// context the manifest names), each directive the table knows is offered where it is written, when its name is
// typed there; and in every template file completion never throws and replaces only text before the cursor.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeWorkspace } from '../../server/src/engine/analyze.js';
import type { FeatureContext } from '../../server/src/features/context.js';
import { completionsAt } from '../../server/src/features/completion.js';
import { directiveEntries } from '../../server/src/model/directive-table.js';
import type { ContextName, Directive } from '../../server/src/model/types.js';
import { entries } from '../corpus/manifest.js';

function all(directives: readonly Directive[]): Directive[] {
  return directives.flatMap((directive) => [directive, ...all(directive.children)]);
}

/** Inside map, geo, types, Lua...: rows of the module's own, not directives. */
function inCustomBody(directive: Directive): boolean {
  for (let parent = directive.parent; parent; parent = parent.parent) {
    if (directiveEntries(parent.name).some((entry) => entry.body === 'custom')) return true;
  }
  return false;
}

async function contextOf(file: { absPath: string; nginx_t_context: string }): Promise<FeatureContext> {
  const text = readFileSync(file.absPath, 'utf8');
  const options = { nginxVersion: '1.22.1', contexts: { [file.absPath]: file.nginx_t_context as ContextName } };
  const { workspace } = await analyzeWorkspace([{ path: file.absPath, text }], options);
  return { workspace, file: workspace.files.find((candidate) => candidate.path === file.absPath)!, options };
}

describe('completion over the corpus', () => {
  it('offers every known directive of the files nginx accepts where it is written', async () => {
    const accepted = entries.filter((entry) => entry.nginx_t === 'ok' && entry.kind === 'nginx');
    expect(accepted.length).toBeGreaterThan(250);
    const problems: string[] = [];
    let checked = 0;
    for (const file of accepted) {
      const ctx = await contextOf(file);
      for (const directive of all(ctx.file.directives)) {
        if (directiveEntries(directive.name).length === 0 || inCustomBody(directive)) continue;
        checked++;
        const labels = completionsAt(ctx, directive.nameSpan.endOffset).map((candidate) => candidate.label);
        if (!labels.includes(directive.name)) problems.push(`${file.file}:${directive.nameSpan.start.line + 1} ${directive.name}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(3000);
  });

  it('never throws in a template and replaces only what is before the cursor', async () => {
    const templates = entries.filter((entry) => entry.kind !== 'nginx');
    const problems: string[] = [];
    for (const file of templates) {
      const text = readFileSync(file.absPath, 'utf8');
      const { workspace } = await analyzeWorkspace([{ path: file.absPath, text }]);
      const ctx: FeatureContext = { workspace, file: workspace.files.find((candidate) => candidate.path === file.absPath)!, options: {} };
      // Line starts and line ends, where a user starts typing: every sixth line, to keep the test quick.
      const starts = [0, ...[...text.matchAll(/\n/g)].map((match) => match.index + 1)].filter((_, i) => i % 6 === 0);
      for (const offset of starts) {
        for (const at of [offset, Math.max(offset - 1, 0)]) {
          for (const candidate of completionsAt(ctx, at)) {
            if (candidate.span.endOffset !== at || candidate.span.startOffset > at) problems.push(`${file.file}@${at}: ${candidate.label}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

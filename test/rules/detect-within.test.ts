// Rule.detectWithin against detect() on real configurations nobody here wrote: for every block of every plain corpus
// file (read in the context nginx -t tested it in), the `directive` rule's states within the block are exactly
// detect()'s states inside it, in the same order and worded alike. The language server relies on this to re-decide
// only the block an edit was confined to (engine/block-rerun.ts; test/property/incremental-analysis.test.ts checks
// the whole path after random edits).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RuleContext, RuleState } from '../../server/src/analysis/rule-api.js';
import { DUPLICATE_REJECTED } from '../../server/src/analysis/directive-duplicates.js';
import { resolveOptions } from '../../server/src/engine/options.js';
import type { ContextName, Directive } from '../../server/src/model/types.js';
import { buildWorkspace } from '../../server/src/model/workspace.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { directiveRule } from '../../server/src/rules/directive.js';
import type { FileHost } from '../../server/src/util/types.js';
import { entries } from '../corpus/manifest.js';

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };
const CONTEXTS = new Set<string>(['main', 'http', 'server', 'location', 'stream']);

function blocks(list: readonly Directive[], out: Directive[] = []): Directive[] {
  for (const directive of list) {
    if (directive.blockSpan) out.push(directive);
    blocks(directive.children, out);
  }
  return out;
}

function worded(states: readonly RuleState[], context: RuleContext): string[] {
  return states.map((state) => `${state.span.startOffset}-${state.span.endOffset} ${directiveRule.message(state as never, context).headline}`);
}

async function contextFor(path: string, text: string, top: ContextName | undefined): Promise<RuleContext> {
  const contexts = top ? { [path]: top } : undefined;
  const workspace = buildWorkspace([{ path, text }], isolated, await loadNginxParser(), { contexts });
  return { workspace, options: resolveOptions({ nginxVersion: '1.22.1' }) };
}

describe('the directive rule within one block', () => {
  const plain = entries.filter((entry) => entry.kind === 'nginx' && entry.templating === 'none' && CONTEXTS.has(entry.nginx_t_context));

  it('gives detect()\'s states inside each block of every plain corpus file, in order', async () => {
    let checkedBlocks = 0;
    let withFindings = 0;
    for (const entry of plain) {
      const context = await contextFor(entry.absPath, readFileSync(entry.absPath, 'utf8'), entry.nginx_t_context as ContextName);
      const all = directiveRule.detect(context);
      for (const block of blocks(context.workspace.files[0]!.directives)) {
        const within = directiveRule.detectWithin!(context, block);
        if (DUPLICATE_REJECTED.has(block.name)) {
          expect(within).toBeUndefined();
          continue;
        }
        const inside = all.filter((state) => state.span.startOffset >= block.span.startOffset && state.span.endOffset <= block.span.endOffset);
        expect(within, `${entry.file}: ${block.name} at ${block.span.startOffset}`).toBeDefined();
        expect(worded(within!, context), `${entry.file}: ${block.name} at ${block.span.startOffset}`).toEqual(worded(inside, context));
        checkedBlocks++;
        if (inside.length > 0) withFindings++;
      }
    }
    expect(plain.length).toBeGreaterThan(100);
    expect(checkedBlocks).toBeGreaterThan(1000);
    // Blocks with findings in them are what the comparison is about.
    expect(withFindings).toBeGreaterThan(10);
  });

  it('declines when a root is judged in its best guessed context (all its findings decide which)', async () => {
    const context = await contextFor('/snippets/proxy.conf', 'location / {\n    proxy_buffering maybe;\n}\n', undefined);
    const location = context.workspace.files[0]!.directives[0]!;
    expect(context.workspace.roots[0]!.basis).not.toBe('stated');
    expect(directiveRule.detectWithin!(context, location)).toBeUndefined();
    expect(directiveRule.detect(context)).toHaveLength(1);
  });
});

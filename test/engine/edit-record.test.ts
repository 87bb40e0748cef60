// An analysis that builds on a model edit forgets its record (model/incremental-model.ts settleModelEdit): the record
// was the last holder of the previous model, and so of a second copy of the document's text, until the next edit.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { analyzeWorkspace, type WorkspaceAnalysis } from '../../server/src/engine/analyze.js';
import { buildPlainConfigFile } from '../../server/src/model/build.js';
import { composeChange, modelEditOf, updatedModel } from '../../server/src/model/incremental-model.js';
import type { ConfigFile, ModelCache } from '../../server/src/model/types.js';
import { memoryHost } from '../property/support.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const FILE = '/edit-record/nginx.conf';
const TEXT = [
  'events {}',
  'http {',
  '    upstream app { server 127.0.0.1:3000; keepalive 16; }',
  '    server {',
  '        listen 80;',
  '        server_name example.com;',
  '        location / { proxy_pass http://app; }',
  '    }',
  '}',
  '',
].join('\n');

function analyze(file: ConfigFile, previous?: WorkspaceAnalysis): Promise<WorkspaceAnalysis> {
  const docs = [{ path: FILE, text: file.text }];
  const models: ModelCache = { get: (asked, text) => (asked === FILE && text === file.text ? file : undefined) };
  return analyzeWorkspace(docs, { host: memoryHost(docs), models }, undefined, previous);
}

/** The model typed into (`x` in the server_name) and a weak reference to the model it was derived from. */
async function edited(): Promise<{ model: ConfigFile; previousModel: WeakRef<ConfigFile>; first: WorkspaceAnalysis }> {
  const opened = buildPlainConfigFile(FILE, TEXT)!;
  const first = await analyze(opened);
  const at = TEXT.indexOf('example.com');
  const text = `${TEXT.slice(0, at)}x${TEXT.slice(at)}`;
  const model = updatedModel(opened, text, composeChange(undefined, at, at, 1, false))!;
  expect(modelEditOf(model)?.previous).toBe(opened);
  return { model, previousModel: new WeakRef(opened), first };
}

describe('the record of a model edit', () => {
  it('is forgotten by the analysis that builds on it, which lets the previous model go', async () => {
    // In a function of its own, so that no variable of this one holds the first analysis.
    const { model, previousModel, second } = await (async () => {
      const { model, previousModel, first } = await edited();
      return { model, previousModel, second: await analyze(model, first) };
    })();
    expect(second.reused).toBe(true);
    expect(modelEditOf(model)).toBeUndefined();
    // Nothing here holds the first analysis or its model any more: only a record kept by mistake would.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(previousModel.deref()).toBeUndefined();
  });

  it('stays for the analysis that can build on it when one without the previous analysis ran first', async () => {
    const { model, first } = await edited();
    await analyze(model);
    expect(modelEditOf(model)).toBeDefined();
    expect((await analyze(model, first)).reused).toBe(true);
    expect(modelEditOf(model)).toBeUndefined();
  });
});

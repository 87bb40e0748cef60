// What an incrementally updated model keeps alive. A block read from a new version of the text gave its arguments
// views of that whole version (V8 slices strings of 13 characters or more without copying), and the blocks around
// it keep theirs: a document typed into in many blocks held one whole text per block. Measured as V8's heap after
// full collections, with the texts themselves released.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildPlainConfigFile } from '../../server/src/model/build.js';
import { composeChange, updatedModel } from '../../server/src/model/incremental-model.js';
import type { ConfigFile } from '../../server/src/model/types.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapInUse = () => (gc(), gc(), process.memoryUsage().heapUsed);

const BLOCKS = 2_000;
const block = (index: number) => `  server {\n    server_name app-${index}.example.com;\n    listen 127.0.0.1:${8000 + index};\n  }\n`;
const EDITED = 40;

/**
 * The model after typing one character into the server_name of `EDITED` blocks, one after the other from the end
 * backwards: each edit moves the blocks after it onto the new version's line index, so only the texts can pile up.
 */
function typedInto(): { model: ConfigFile; textBytes: number } {
  let text = `http {\n${Array.from({ length: BLOCKS }, (_, index) => block(index)).join('')}}\n`;
  let model = buildPlainConfigFile('/test/nginx.conf', text)!;
  const textBytes = text.length;
  for (let edit = 0; edit < EDITED; edit++) {
    const at = text.indexOf(`server_name app-${BLOCKS - 1 - edit * 45}.`) + 'server_name app-'.length;
    text = `${text.slice(0, at)}x${text.slice(at)}`;
    model = updatedModel(model, text, composeChange(undefined, at, at, 1, false))!;
    expect(model).toBeDefined();
  }
  return { model, textBytes };
}

describe('an incrementally updated model', () => {
  it('keeps no whole text of the versions it was updated through, beyond the first and the last', () => {
    const before = heapInUse();
    const { model, textBytes } = typedInto();
    const retained = heapInUse() - before;
    expect(model.directives[0]!.children).toHaveLength(BLOCKS);
    // The first text (the blocks never edited), the previous version's (the record of the last edit) and the last;
    // keeping one per edited block held 41 here.
    expect(retained).toBeLessThan(buildOnlyHeap() + 8 * textBytes);
  });
});

/** The heap a model of the same text takes when built once (no edits): what the edited one is held to. */
function buildOnlyHeap(): number {
  const text = `http {\n${Array.from({ length: BLOCKS }, (_, index) => block(index)).join('')}}\n`;
  const before = heapInUse();
  const model = buildPlainConfigFile('/test/nginx.conf', text);
  const after = heapInUse();
  expect(model).toBeDefined();
  return after - before;
}

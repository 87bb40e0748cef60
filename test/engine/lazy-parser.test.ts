// The wasm parser is loaded only when a file needs it (engine/analyze.ts): a run over plain files never loads it, and
// a template met later (even through an include) loads it and gets the same findings as ever. vitest gives each test
// file its own module registry, so nothing else has loaded the parser in this file's process.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { nginxParserLoaded } from '../../server/src/parser/loader.js';
import { memoryHost, VIRTUAL_DIR } from '../property/support.js';

const PLAIN = { path: path.join(VIRTUAL_DIR, 'nginx.conf'), text: 'http {\n  upstream app { server 127.0.0.1:1; }\n  include site.conf;\n}\n' };
const SITE = { path: path.join(VIRTUAL_DIR, 'site.conf'), text: 'server { location / { proxy_pass http://app; } }\n' };
const TEMPLATED_SITE = { ...SITE, text: 'server {\n{{ if .X }}\n  location / { proxy_pass http://app; }\n{{ end }}\n}\n' };

describe('the wasm parser', () => {
  it('is not loaded for plain files, and is loaded when an included file is a template', async () => {
    const plain = await analyze([PLAIN], { host: memoryHost([PLAIN, SITE]) });
    expect(plain.map((finding) => finding.ruleId)).toContain('upstream-keepalive');
    expect(nginxParserLoaded()).toBe(false);

    const templated = await analyze([PLAIN], { host: memoryHost([PLAIN, TEMPLATED_SITE]) });
    expect(nginxParserLoaded()).toBe(true);
    expect(templated.map((finding) => finding.ruleId)).toContain('upstream-keepalive');
    // The same analysis with the parser already loaded finds the same.
    expect(await analyze([PLAIN], { host: memoryHost([PLAIN, TEMPLATED_SITE]) })).toEqual(templated);
  });
});

// `format` never changes what nginx reads (issue 26 item 8): a form feed glued to `#` is a word for nginx, so the
// quoted string after it runs over the next lines, and indenting them would change the text nginx serves. Real nginx
// serves the same body before and after `format`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { get } from '../support/live-clients.js';
import { freePort } from '../support/nginx.js';
import { makeWorkDir, runCliAsync, stopLeftoverNginx, withNginx } from './harness.js';

const work = makeWorkDir();

afterAll(async () => {
  await stopLeftoverNginx();
  work.remove();
});

async function servedBody(site: string, port: number): Promise<string> {
  return withNginx([site], port, async () => {
    const reply = await get('node-http', port);
    expect(reply.status).toBe(200);
    return reply.body;
  });
}

describe('live: format and nginx’s white space', () => {
  it('leaves the lines of a string alone when a form feed before # makes nginx read one', async () => {
    const port = await freePort();
    const site = path.join(work.dir, 'site.conf');
    // sub_filter's arguments: the word `\f#y` and a string over three lines, which replaces `\f#y` in the body.
    const text = [
      'server {',
      `  listen 127.0.0.1:${port};`,
      '  location / {',
      '    default_type text/html;',
      "    sub_filter \f#y '",
      'add_header A b;',
      "    \f#z ';",
      '    return 200 "[\f#y]";',
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(site, text);
    const before = await servedBody(site, port);
    expect(before).toBe('[\nadd_header A b;\n    \f#z ]');

    const formatted = await runCliAsync(work.dir, ['format', 'site.conf']);
    expect(formatted.stderr).toBe('');
    expect(formatted.status).toBe(0);
    const after = readFileSync(site, 'utf8');
    // Re-indented where nginx reads white space between tokens, and only there.
    expect(after).not.toBe(text);
    expect(after).toContain("\n        sub_filter \f#y '\nadd_header A b;\n    \f#z ';\n");
    expect(await servedBody(site, port)).toBe(before);
  });
});

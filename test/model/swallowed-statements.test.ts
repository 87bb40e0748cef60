// A statement swallowed by the one before it for want of a `;` (model/swallowed-statements.ts): reported as the
// syntax problem nginx makes of it, on nginx's line; a directive that merely continues on the next line is not.
// Each text is also given to real nginx, which must agree.
import { describe, expect, it } from 'vitest';
import { nginxTestSnippets } from '../support/nginx.js';
import { parseModel } from './support.js';

async function problems(text: string): Promise<string[]> {
  const file = await parseModel(text);
  return file.syntaxProblems.map((problem) => `${problem.span.start.line + 1}: ${problem.message}`);
}

const SWALLOWED: Array<[string, string]> = [
  ['upstream app {\n    server 127.0.0.1:5000\n    keepalive 16;\n}\n', '3: invalid parameter "keepalive"'],
  ['upstream app {\n    server 127.0.0.1:5000 weight=2\n    server 127.0.0.1:5001;\n}\n', '3: invalid parameter "server"'],
  // nginx names the line of the `;`, not the parameter's.
  ['upstream app {\n    server 127.0.0.1:5000\n    keepalive\n    16;\n}\n', '4: invalid parameter "keepalive"'],
  ['server {\n    listen 127.0.0.1:8081\n    server_name x;\n}\n', '3: invalid parameter "server_name"'],
  // Any directive whose argument count nginx then refuses: nginx's words, and a note of the line that lacks the `;`.
  [
    'server {\n    location / {\n        proxy_pass http://127.0.0.1:5000\n        proxy_set_header Host $host;\n    }\n}\n',
    '4: invalid number of arguments in "proxy_pass" directive (line 3 lacks its ";")',
  ],
  ['server {\n    gzip on\n    gzip_vary on;\n}\n', '3: invalid number of arguments in "gzip" directive (line 2 lacks its ";")'],
  [
    'upstream app {\n    server 127.0.0.1:5000;\n    keepalive 16\n    keepalive_timeout\n        60s;\n}\n',
    '5: invalid number of arguments in "keepalive" directive (line 3 lacks its ";")',
  ],
];

const CONTINUED = [
  // A directive taking any number of words swallows silently: nginx accepts it, and so is it here.
  'server {\n    location / {\n        index index.html\n        try_files $uri =404;\n    }\n}\n',
  // A directive name as a later line's argument where the count stays one nginx takes.
  'server {\n    location / {\n        add_header X-A\n            expires;\n    }\n}\n',
  'upstream app {\n    server 127.0.0.1:5000\n        weight=5 max_fails=2\n        backup;\n    server 127.0.0.1:5001;\n}\n',
  'server {\n    listen 127.0.0.1:8081\n        default_server\n        reuseport;\n    server_name x;\n}\n',
];

describe('a statement swallowed by the directive before it', () => {
  it.each(SWALLOWED)('is nginx\'s "invalid parameter" on its line: %j', async (text, expected) => {
    expect(await problems(text)).toEqual([expected]);
    const result = nginxTestSnippets([text]);
    expect(result.ok, result.output).toBe(false);
    // nginx's words, and ours may add a note in parentheses.
    const nginx = `${result.errors[0]?.line}: ${result.errors[0]?.message}`;
    expect(expected === nginx || expected.startsWith(`${nginx} (`), `${expected}\n${result.output}`).toBe(true);
  });

  it.each(CONTINUED)('is not reported when the next line holds parameters: %j', async (text) => {
    expect(await problems(text)).toEqual([]);
    const result = nginxTestSnippets([text]);
    expect(result.ok, result.output).toBe(true);
  });
});

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
];

const CONTINUED = [
  'upstream app {\n    server 127.0.0.1:5000\n        weight=5 max_fails=2\n        backup;\n    server 127.0.0.1:5001;\n}\n',
  'server {\n    listen 127.0.0.1:8081\n        default_server\n        reuseport;\n    server_name x;\n}\n',
];

describe('a statement swallowed by an upstream server or a listen', () => {
  it.each(SWALLOWED)('is nginx\'s "invalid parameter" on its line: %j', async (text, expected) => {
    expect(await problems(text)).toEqual([expected]);
    const result = nginxTestSnippets([text]);
    expect(result.ok, result.output).toBe(false);
    expect(`${result.errors[0]?.line}: ${result.errors[0]?.message}`, result.output).toBe(expected);
  });

  it.each(CONTINUED)('is not reported when the next line holds parameters: %j', async (text) => {
    expect(await problems(text)).toEqual([]);
    const result = nginxTestSnippets([text]);
    expect(result.ok, result.output).toBe(true);
  });
});

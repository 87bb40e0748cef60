// nginx's first syntax error, with its words and on its line (model/nginx-first-error.ts), as a file's syntax
// problems carry it: each text is also given to real nginx (included in http{}), which must say the same.
import { describe, expect, it } from 'vitest';
import { nginxTestSnippets } from '../support/nginx.js';
import { parseModel } from './support.js';

async function problems(text: string): Promise<string[]> {
  const file = await parseModel(text);
  return file.syntaxProblems.map((problem) => `${problem.span.start.line + 1}: ${problem.message}`);
}

const REJECTED: Array<[string, string]> = [
  // The quote that closed the first string taken for an opening one: nginx stops where a `$` follows its close.
  ["log_format main $remote_addr \"$request\" '\n    '$status \"$http_referer\"';\n", '2: unexpected "$"'],
  // A map body takes no blocks: the server{} of a map left open.
  ['map $a $b {\n    default 1;\nserver {\n    listen 127.0.0.1:8080;\n}\n', '3: unexpected "{"'],
  ['upstream app {\n    server {S};\n    keepalive 16;\n}\n', '2: directive "server" is not terminated by ";"'],
  ['server {\n    location / {\n        return {X};\n    }\n}\n', '3: directive "return" is not terminated by ";"'],
  ['server {\n    listen 127.0.0.1:8080;\n}\n}\n', '4: unexpected "}"'],
  ['server {\n    listen 127.0.0.1:8080;\n', '3: unexpected end of file, expecting "}"'],
  ['server {\n    location /a;\n}\n', '2: directive "location" has no opening "{"'],
  // nginx stops at the first error: a directive it never reads is not judged, nor a second mistake.
  ['server {\n    listen 127.0.0.1:8080 "a"b;\n    location / {\n        return 200\n    }\n}\n', '2: unexpected "b"'],
];

const ACCEPTED = [
  'server {\n    listen 127.0.0.1:8080;\n    if ($http_x ~ "a{2}") {\n        return 200;\n    }\n}\n',
  'map $uri $m {\n    default 0;\n    "~^/a{2}$" 1;\n}\n',
  "log_format main '$remote_addr \"$request\" '\n    '$status $body_bytes_sent';\n",
];

describe("nginx's first syntax error", () => {
  it.each(REJECTED)('is nginx\'s, on its line: %j', async (text, expected) => {
    expect(await problems(text)).toEqual([expected]);
    const result = nginxTestSnippets([text]);
    expect(result.ok, result.output).toBe(false);
    expect(`${result.errors[0]?.line}: ${result.errors[0]?.message}`, result.output).toBe(expected);
  });

  it.each(ACCEPTED)('is none where nginx reads the file through: %j', async (text) => {
    expect(await problems(text)).toEqual([]);
    expect(nginxTestSnippets([text]).ok).toBe(true);
  });

  it('takes a third-party directive the table knows only as simple (echo, whose module this nginx lacks)', async () => {
    expect(await problems('server {\n    location / {\n        echo {X};\n    }\n}\n')).toEqual([
      '3: directive "echo" is not terminated by ";"',
    ]);
  });

  it('puts a Lua block body, braces and quotes and all, past nginx\'s tokenizer as the Lua module reads it', async () => {
    const text = 'server {\n    location / {\n        content_by_lua_block {\n            local t = { a = "}" }\n        }\n    }\n}\n';
    expect(await problems(text)).toEqual([]);
    expect(nginxTestSnippets([text], 'http', ['http_lua']).ok).toBe(true);
  });
});

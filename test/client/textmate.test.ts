// The TextMate grammars (syntaxes/), which colour nginx files from the first frame, before the language server
// answers and where it never runs (Markdown code blocks): tokenized by the engine VS Code uses, on every real file
// the project has, on hand-written lines with known scopes, and on broken and hostile input.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { grammarContributions, grammarFile, Grammars, innermost, repoRoot, scopesOf, type TokenizedLine } from './support/textmate.js';

/** Every file the project keeps as nginx input, plus the corpus' own non-nginx negatives: none may hang. */
const REAL_FILES = ['examples', 'test/fixtures', 'test/corpus'].flatMap((directory) =>
  readdirSync(path.join(repoRoot, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name))),
);

/** Files that legitimately end inside an open rule, with why. Every other nginx file must end with none open. */
const ENDS_OPEN = new Map([
  ['test/fixtures/syntax/invalid-missing-semicolon-at-eof.conf', 'its last directive has no `;`: still open, as nginx sees it'],
  ['test/fixtures/syntax/invalid-quote-loses-enclosing-block.conf', 'a quote never closed: a string to the end, as nginx reads it'],
  ['test/corpus/templated/Mailu__Mailu__core__nginx__dovecot__proxy.conf', 'a Dovecot config (`key = value`, no `;`), not nginx'],
]);
const isNginxInput = (file: string) =>
  !file.startsWith('test/corpus/sigil_other/') && !/\.(md|tsv)$/.test(file) && !file.endsWith('corpus/manifest.ts');

const grammars = new Grammars();
const tokenize = (text: string) => grammars.tokenize('source.nginx', text);
const lastScope = (lines: TokenizedLine[], text: string, line: string, token: string) => scopesOf(lines, text, line, token).at(-1);

describe('the grammar contributions in package.json', () => {
  it('give the nginx language its grammar and inject templates into it and nginx into Markdown fences', () => {
    const byScope = Object.fromEntries(grammarContributions.map((grammar) => [grammar.scopeName, grammar]));
    expect(byScope['source.nginx']).toMatchObject({ language: 'nginx', embeddedLanguages: { 'meta.embedded.block.lua': 'lua' } });
    expect(byScope['go-template.injection.nginx']?.injectTo).toEqual(['source.nginx']);
    expect(byScope['jinja.injection.nginx']?.injectTo).toEqual(['source.nginx']);
    expect(byScope['markdown.nginx.codeblock']).toMatchObject({
      injectTo: ['text.html.markdown'],
      embeddedLanguages: { 'meta.embedded.block.nginx': 'nginx' },
    });
    for (const contribution of grammarContributions) {
      const grammar = JSON.parse(readFileSync(grammarFile(contribution), 'utf8')) as { scopeName: string; injectionSelector?: string };
      expect(grammar.scopeName, contribution.path).toBe(contribution.scopeName);
      expect(grammar.injectionSelector !== undefined, contribution.path).toBe(contribution.injectTo !== undefined);
    }
  });
});

describe('every real file', () => {
  it('tokenizes within the per-line time limit, and each nginx file ends with no string, table or Lua block left open', async () => {
    expect(REAL_FILES.length).toBeGreaterThan(800);
    const stopped: string[] = [];
    const open: string[] = [];
    for (const file of REAL_FILES) {
      const lines = await tokenize(readFileSync(path.join(repoRoot, file), 'utf8'));
      lines.forEach((line, index) => line.stoppedEarly && stopped.push(`${file}:${index + 1}`));
      if (isNginxInput(file) && lines.at(-1)!.depth !== 1) open.push(file);
    }
    expect(stopped).toEqual([]);
    expect(open).toEqual([...ENDS_OPEN.keys()]);
  }, 120_000);
});

describe('nginx', () => {
  it('colours the plain example: comments, directives, blocks, variables, numbers, constants and names', async () => {
    const text = readFileSync(path.join(repoRoot, 'examples/plain/nginx.conf'), 'utf8');
    const lines = await tokenize(text);
    expect(innermost(lines[0]!)[0]).toEqual(['#', 'punctuation.definition.comment.nginx']);
    expect(scopesOf(lines, text, 'worker_processes auto;', 'worker_processes')).toEqual([
      'source.nginx', 'meta.directive.nginx', 'keyword.control.directive.nginx',
    ]);
    expect(innermost(lines[text.split('\n').indexOf('events {')]!)).toEqual([
      ['events', 'keyword.control.directive.block.nginx'], ['{', 'punctuation.section.block.begin.nginx'],
    ]);
    expect(lastScope(lines, text, 'map $http_upgrade $connection_upgrade {', 'http_upgrade')).toBe('variable.other.nginx');
    expect(lastScope(lines, text, 'upstream app {', 'app')).toBe('entity.name.type.upstream.nginx');
    expect(lastScope(lines, text, 'server_name example.com;', 'example.com')).toBe('entity.name.tag.server-name.nginx');
    expect(lastScope(lines, text, 'proxy_read_timeout 120s;', '120')).toBe('constant.numeric.nginx');
    expect(lastScope(lines, text, 'proxy_read_timeout 120s;', 's')).toBe('keyword.other.unit.nginx');
    expect(lastScope(lines, text, 'sendfile      on;', 'on')).toBe('constant.language.boolean.nginx');
    expect(lastScope(lines, text, 'location = /healthz {', '=')).toBe('keyword.operator.modifier.nginx');
    expect(lastScope(lines, text, 'default upgrade;', 'default')).toBe('keyword.control.directive.nginx');
  });

  it('colours strings with escapes and variables, regexes after ~, if conditions, times and named locations', async () => {
    const text = [
      'log_format main "$remote_addr \\"${request}\\" x";',
      "add_header X-A 'it''s';",
      'location ~* \\.(jpg|png)$ { expires 1h30m; }',
      'location @fallback { proxy_pass http://app; }',
      'if ($http_user_agent ~ "MSIE (6|7)") { return 403; }',
      'if (!-f $request_filename) { rewrite ^/(.*)$ /index.php?q=$1 last; }',
      'map $uri $target { ~^/old/(?<rest>.*) /new/$rest; default 0; }',
      'return 301 http://h/#frag; # a comment',
    ].join('\n');
    const lines = await tokenize(text);
    expect(innermost(lines[0]!)).toEqual([
      ['log_format', 'keyword.control.directive.nginx'], ['main', 'meta.directive.nginx'],
      ['"', 'punctuation.definition.string.begin.nginx'], ['$', 'punctuation.definition.variable.nginx'],
      ['remote_addr', 'variable.other.nginx'], ['\\"', 'constant.character.escape.nginx'],
      ['$', 'punctuation.definition.variable.nginx'], ['{request}', 'variable.other.nginx'], ['\\"', 'constant.character.escape.nginx'], ['x', 'string.quoted.double.nginx'],
      ['"', 'punctuation.definition.string.end.nginx'], [';', 'punctuation.terminator.nginx'],
    ]);
    expect(lastScope(lines, text, "add_header X-A 'it''s';", "'")).toBe('punctuation.definition.string.begin.nginx');
    expect(lastScope(lines, text, 'location ~* \\.(jpg|png)$ { expires 1h30m; }', '~*')).toBe('keyword.operator.modifier.nginx');
    expect(lastScope(lines, text, 'location ~* \\.(jpg|png)$ { expires 1h30m; }', '\\.(jpg|png)$')).toBe('string.regexp.nginx');
    expect(lastScope(lines, text, 'location ~* \\.(jpg|png)$ { expires 1h30m; }', '1h30m')).toBe('constant.numeric.time.nginx');
    expect(lastScope(lines, text, 'location @fallback { proxy_pass http://app; }', '@fallback')).toBe(
      'entity.name.function.named-location.nginx',
    );
    expect(lastScope(lines, text, 'if ($http_user_agent ~ "MSIE (6|7)") { return 403; }', '"MSIE (6|7)"')).toBe('string.regexp.nginx');
    const rewrite = 'if (!-f $request_filename) { rewrite ^/(.*)$ /index.php?q=$1 last; }';
    expect(lastScope(lines, text, rewrite, '!-f')).toBe('keyword.operator.test.nginx');
    expect(lastScope(lines, text, rewrite, '^/(.*)$')).toBe('string.regexp.nginx');
    expect(lastScope(lines, text, rewrite, 'last')).toBe('meta.directive.nginx');
    const map = 'map $uri $target { ~^/old/(?<rest>.*) /new/$rest; default 0; }';
    expect(lastScope(lines, text, map, '^/old/(?<rest>.*)')).toBe('string.regexp.nginx');
    expect(lastScope(lines, text, map, '/new/')).toBe('meta.block.table.nginx');
    expect(innermost(lines[7]!).slice(1, 3)).toEqual([['301', 'constant.numeric.nginx'], ['http://h/#frag', 'meta.directive.nginx']]);
    expect(innermost(lines[7]!).at(-1)).toEqual(['a comment', 'comment.line.number-sign.nginx']);
  });

  const LUA = [
    'content_by_lua_block {',
    '    local t = { a = "}" }',
    '    ngx.say(t.a)',
    '}',
    'proxy_pass http://app;',
  ].join('\n');

  it('embeds *_by_lua_block bodies as Lua, whose braces and strings do not end the block', async () => {
    const withLua = new Grammars({
      'source.lua': {
        scopeName: 'source.lua',
        patterns: [
          { name: 'string.quoted.double.lua', begin: '"', end: '"' },
          { name: 'keyword.local.lua', match: '\\blocal\\b' },
        ],
      },
    });
    const lines = await withLua.tokenize('source.nginx', LUA);
    expect(scopesOf(lines, LUA, 'local t = { a = "}" }', 'local')).toEqual(['source.nginx', 'meta.embedded.block.lua', 'keyword.local.lua']);
    expect(scopesOf(lines, LUA, 'local t = { a = "}" }', '}').at(-1)).toBe('string.quoted.double.lua');
    expect(lastScope(lines, LUA, 'proxy_pass http://app;', 'proxy_pass')).toBe('keyword.control.directive.nginx');
  });

  it('leaves a Lua body plain where no Lua grammar is installed, and still finds its end', async () => {
    const lines = await tokenize(LUA.replace('"}"', '"x"'));
    expect(innermost(lines[1]!)).toEqual([['local t = { a = "x" }', 'meta.embedded.block.lua']]);
    expect(innermost(lines[4]!)[0]).toEqual(['proxy_pass', 'keyword.control.directive.nginx']);
  });
});

describe('templates', () => {
  it('colours Go-template actions in a Dokku sigil without breaking the nginx around them', async () => {
    const text = readFileSync(path.join(repoRoot, 'examples/dokku/nginx.conf.sigil'), 'utf8');
    const lines = await tokenize(text);
    const range = '{{ range $port_map := .PROXY_PORT_MAP | split " " }}';
    expect(scopesOf(lines, text, range, '{{')).toEqual([
      'source.nginx', 'meta.embedded.line.go-template', 'punctuation.section.embedded.begin.go-template',
    ]);
    expect(lastScope(lines, text, range, 'range')).toBe('keyword.other.template.go-template');
    expect(lastScope(lines, text, range, '$port_map')).toBe('variable.other.go-template');
    expect(lastScope(lines, text, range, '.PROXY_PORT_MAP')).toBe('variable.other.property.go-template');
    expect(lastScope(lines, text, range, 'split')).toBe('entity.name.function.go-template');
    const upstream = 'upstream {{ $.APP }}-{{ $upstream_port }} {';
    expect(lastScope(lines, text, upstream, 'upstream')).toBe('keyword.control.directive.block.nginx');
    expect(innermost(lines[text.split('\n').findIndex((line) => line.trim() === upstream)]!).at(-1)).toEqual([
      '{', 'punctuation.section.block.begin.nginx',
    ]);
    const serverName = '{{ if $.NOSSL_SERVER_NAME }}server_name {{ $.NOSSL_SERVER_NAME }}; {{ end }}';
    expect(lastScope(lines, text, serverName, 'server_name')).toBe('keyword.control.directive.nginx');
    expect(lastScope(lines, text, serverName, ';')).toBe('punctuation.terminator.nginx');
  });

  it('colours Jinja2 statements, comments and expressions in a .j2 template', async () => {
    const file = 'test/fixtures/upstream-keepalive/invalid-jinja-keepalive-in-for.conf.j2';
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    const lines = await tokenize(`{# managed by Ansible #}\n${text}`);
    const source = `{# managed by Ansible #}\n${text}`;
    expect(innermost(lines[0]!)).toEqual([['{# managed by Ansible #}', 'comment.block.jinja']]);
    expect(scopesOf(lines, source, '{% for backend in app_backends %}', 'for')).toEqual([
      'source.nginx', 'meta.embedded.line.jinja', 'keyword.other.template.jinja',
    ]);
    expect(lastScope(lines, source, '{% for backend in app_backends %}', '%}')).toBe('punctuation.section.embedded.end.jinja');
    expect(lastScope(lines, source, '{%- if loop.last %}', '{%-')).toBe('punctuation.section.embedded.begin.jinja');
    const server = 'server {{ backend.host }}:{{ backend.port | default(80) }};';
    expect(lastScope(lines, source, server, 'server')).toBe('keyword.control.directive.nginx');
    expect(lastScope(lines, source, server, '.port')).toBe('variable.other.property.go-template');
    expect(lastScope(lines, source, server, ';')).toBe('punctuation.terminator.nginx');
  });
});

describe('Markdown', () => {
  // The fence rule of VS Code's Markdown grammar (markdown-basics, fenced_code_block_unknown) that the injection
  // hooks into, verbatim; the real grammar is exercised in test/e2e/colour.e2e.ts.
  const markdownHost = {
    scopeName: 'text.html.markdown',
    patterns: [
      {
        begin: '(^|\\G)(\\s*)(`{3,}|~{3,})\\s*(?=([^`]*)?$)',
        beginCaptures: { 3: { name: 'punctuation.definition.markdown' }, 4: { name: 'fenced_code.block.language' } },
        end: '(^|\\G)(\\2|\\s{0,3})(\\3)\\s*$',
        endCaptures: { 3: { name: 'punctuation.definition.markdown' } },
        name: 'markup.fenced_code.block.markdown',
      },
    ],
  };

  it('colours ```nginx fences as nginx up to the closing fence, even with a string left open', async () => {
    const text = ['Intro', '```nginx', 'keepalive 16; # idle', 'add_header X "open', '```', '```text', 'keepalive 16;', '```'].join('\n');
    const lines = await new Grammars({ 'text.html.markdown': markdownHost }).tokenize('text.html.markdown', text);
    expect(scopesOf(lines, text, 'keepalive 16; # idle', 'keepalive')).toEqual([
      'text.html.markdown', 'markup.fenced_code.block.markdown', 'meta.embedded.block.nginx', 'meta.directive.nginx',
      'keyword.control.directive.nginx',
    ]);
    expect(innermost(lines[4]!)).toEqual([['```', 'punctuation.definition.markdown']]);
    expect(innermost(lines[6]!)).toEqual([['keepalive 16;', 'markup.fenced_code.block.markdown']]);
  });
});

describe('broken and hostile input', () => {
  it('ends an unterminated string before the next line holding only `}`', async () => {
    const text = readFileSync(path.join(repoRoot, 'test/fixtures/syntax/invalid-unterminated-string.conf'), 'utf8');
    const lines = await tokenize(text);
    expect(lastScope(lines, text, 'return 200;', 'return 200;')).toBe('string.quoted.double.nginx');
    const after = `${text}\nserver { listen 80; }`;
    const next = await tokenize(after);
    expect(innermost(next.at(-1)!)[0]).toEqual(['server', 'keyword.control.directive.block.nginx']);
  });

  it('ends an unclosed template action, statement or comment with its line', async () => {
    const cases: [string, [string, string]][] = [
      ['listen {{ $.PORT ;', [';', 'meta.embedded.line.go-template']],
      ['keepalive {% if x ;', [';', 'meta.embedded.line.jinja']],
      ['server {# note', ['{# note', 'comment.block.jinja']],
    ];
    for (const [unclosed, lastToken] of cases) {
      const lines = await tokenize(`${unclosed}\n;\nproxy_pass http://app;`);
      expect(innermost(lines[0]!).at(-1), unclosed).toEqual(lastToken);
      expect(innermost(lines[1]!), unclosed).toEqual([[';', 'punctuation.terminator.nginx']]);
      expect(innermost(lines[2]!)[0], unclosed).toEqual(['proxy_pass', 'keyword.control.directive.nginx']);
    }
  });

  it('tokenizes 100 kB lines built to make a backtracking regex blow up, to their end', async () => {
    // Without a time limit: a wall-clock limit made this depend on how busy the machine is (a 100 kB line of `}` is
    // 100,000 tokens, about a second on a loaded machine). Whether a regex can backtrack super-linearly is decided by
    // recheck (textmate-regex.test.ts); here every line must be tokenized whole, to its last character, and a hang
    // would meet the test's timeout.
    const hostile = ['"\\"', '{#', '{{', '{%', '~', '$', 'a-', '1', '(', ')', "'", '#', '}', 'map {', 'if (', '~ "'];
    for (const unit of hostile) {
      const line = unit.repeat(Math.ceil(100_000 / unit.length));
      const text = `location ${line}\nif (${line}\n${line}x`;
      const lines = await grammars.tokenize('source.nginx', text, 0);
      expect(lines.map((tokenized) => tokenized.stoppedEarly), unit).toEqual([false, false, false]);
      const covered = lines.map((tokenized) => tokenized.tokens.map((token) => token.text).join(''));
      expect(covered, unit).toEqual(text.split('\n'));
    }
  }, 300_000);
});

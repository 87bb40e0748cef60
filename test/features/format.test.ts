// The formatter's layout rules, one behaviour each, on small texts through the real parser.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FORMAT_OPTIONS, editsInRange, formatDocument, type FormatOptions } from '../../server/src/features/format.js';
import { applyEdits } from '../../server/src/features/format-layout.js';
import { nginxTokens } from '../../server/src/model/nginx-tokens.js';
import { loadNginxParser, type NginxParser } from '../../server/src/parser/loader.js';

let parser: NginxParser;
beforeAll(async () => {
  parser = await loadNginxParser();
});

function format(text: string, options: Partial<FormatOptions> = {}, path = 'site.conf'): string {
  const result = formatDocument(parser, path, text, { ...DEFAULT_FORMAT_OPTIONS, ...options });
  if (result.kind === 'refused') throw new Error(`refused: ${result.reason}`);
  return result.text;
}

describe('format: indentation', () => {
  it('indents blocks by depth, four spaces by default', () => {
    expect(format('http {\nserver {\n  listen 80;\n        location / {\nreturn 200;\n}\n}\n}\n')).toBe(
      'http {\n    server {\n        listen 80;\n        location / {\n            return 200;\n        }\n    }\n}\n',
    );
  });

  it('indents with tabs, or with another width', () => {
    const text = 'http {\nserver {\nlisten 80;\n}\n}\n';
    expect(format(text, { indentStyle: 'tab' })).toBe('http {\n\tserver {\n\t\tlisten 80;\n\t}\n}\n');
    expect(format(text, { indentSize: 2 })).toBe('http {\n  server {\n    listen 80;\n  }\n}\n');
  });

  it('keeps the alignment of continuation lines relative to their statement, else indents them one level', () => {
    const text = "http {\n  log_format main '$a '\n                  '$b';\n  add_header X\nfoo;\n}\n";
    expect(format(text)).toBe("http {\n    log_format main '$a '\n                    '$b';\n    add_header X\n        foo;\n}\n");
  });

  it('keeps continuation lines aligned with the argument they were aligned with, when the spacing before it changes', () => {
    // `log_format   main   '...'`: the first string moves left by four columns once the spacing is one space, and its
    // continuation lines move with it; a line that was aligned with nothing keeps its offset from the directive.
    const text = "http {\n  log_format   main   '$a '\n                      '$b'\n                      '$c';\n  add_header  X\n      foo;\n}\n";
    expect(format(text)).toBe(
      "http {\n    log_format main '$a '\n                    '$b'\n                    '$c';\n    add_header X\n        foo;\n}\n",
    );
  });

  it('indents comments and template actions between statements like statements, with no level for template scopes', () => {
    const text = 'server {\n# a comment\n{{ if .SSL }}\n      listen 443 ssl;\n  {{ end }}\n}\n';
    expect(format(text, {}, 'nginx.conf.sigil')).toBe('server {\n    # a comment\n    {{ if .SSL }}\n    listen 443 ssl;\n    {{ end }}\n}\n');
  });
});

describe('format: spacing', () => {
  it('leaves one space between arguments, none before ";", and spaces out glued braces', () => {
    expect(format('server{listen   80  ;\tserver_name\t a b;location / {return 200;}}\n')).toBe(
      'server { listen 80; server_name a b; location / { return 200; } }\n',
    );
  });

  it('aligns nothing: a trailing comment gets one space', () => {
    expect(format('listen 80;        # http\nlisten 443 ssl;   # https\n')).toBe('listen 80; # http\nlisten 443 ssl; # https\n');
  });

  it('keeps quoting, escapes and if conditions as written', () => {
    const text = `if ( $request_method  =  POST ) {\n    return 405 "a  \\"b\\"  c";\n}\nadd_header X-A 'x  y';\n`;
    expect(format(text)).toBe(text);
  });

  it('keeps the spacing inside map, geo and types lines, and re-indents them', () => {
    const text = 'http {\nmap $http_upgrade $connection_upgrade {\n      default   upgrade;\n  ""        "";\n}\n  types {\n  text/html    html htm;\n }\n}\n';
    expect(format(text)).toBe(
      'http {\n    map $http_upgrade $connection_upgrade {\n        default   upgrade;\n        ""        "";\n    }\n    types {\n        text/html    html htm;\n    }\n}\n',
    );
  });

  it('keeps template action text, and never separates what is glued to a template action', () => {
    const text = 'server {\n  listen   {{ $.PORT }}{{ if .SSL }} ssl{{ end }} ;\n{{ if .X }}listen 80;{{ end }}\n  server_name {{$.NAME  |  lower}};\n}\n';
    expect(format(text, {}, 'x.sigil')).toBe(
      'server {\n    listen {{ $.PORT }}{{ if .SSL }} ssl{{ end }};\n    {{ if .X }}listen 80;{{ end }}\n    server_name {{$.NAME  |  lower}};\n}\n',
    );
  });

  it('keeps a Jinja2 template\'s tags as written', () => {
    const text = '{% for s in servers %}\nserver {\n  listen {{ s.port }};\n  {%- if s.ssl %}   ssl_certificate {{ s.cert }};{% endif %}\n}\n{% endfor %}\n';
    expect(format(text, {}, 'site.conf.j2')).toBe(
      '{% for s in servers %}\nserver {\n    listen {{ s.port }};\n    {%- if s.ssl %} ssl_certificate {{ s.cert }};{% endif %}\n}\n{% endfor %}\n',
    );
  });

  it('keeps a Jinja2 tag written at column 0 there, and indents the others by depth (Ansible keeps the blanks before a tag)', () => {
    const text = 'server {\n{% if ssl %}\n  listen 443 ssl;\n{# note #}\n      {% endif %}\n}\n';
    expect(format(text, {}, 'site.conf.j2')).toBe('server {\n{% if ssl %}\n    listen 443 ssl;\n{# note #}\n    {% endif %}\n}\n');
  });

  it('leaves the column-0 tags of a real Ansible template at column 0', () => {
    const file = path.join(import.meta.dirname, '../corpus/jinja/geerlingguy__ansible-role-nginx__templates__vhost.j2');
    const text = readFileSync(file, 'utf8');
    const atColumn0 = (lines: string[]) => lines.flatMap((line, index) => (line.startsWith('{%') ? [index] : []));
    const inputLines = text.split('\n');
    const formatted = format(text, {}, file).split('\n');
    expect(atColumn0(inputLines).length).toBeGreaterThan(10);
    // Line breaks never move (blank lines apart, and this file has no runs of them): the same lines, still at column 0.
    expect(formatted.length).toBe(inputLines.length);
    expect(atColumn0(formatted)).toEqual(atColumn0(inputLines));
  });
});

describe('format: what is kept exactly', () => {
  it('moves a *_by_lua_block body with its directive, keeping its own indentation and the text of its strings', () => {
    // The directive moves right by four: so do the body's code lines; the lines inside the long string, the long
    // comment and the string continued by `\` are what Lua reads, and stay as written.
    const text = 'location / {\ncontent_by_lua_block {\n   local x = "a   b"   \n   if x then\n      ngx.say([[one\n  two]])\n   end\n   --[[ c\n c ]] local y = "p\\\n q"\n      }\n}\n';
    expect(format(text)).toBe(
      'location / {\n    content_by_lua_block {\n       local x = "a   b"   \n       if x then\n          ngx.say([[one\n  two]])\n       end\n       --[[ c\n c ]] local y = "p\\\n q"\n    }\n}\n',
    );
    // Moving left by eight: the same body, back where it was under its directive.
    const deep = 'location / {\n            access_by_lua_block {\n              ngx.exit(403)\n            }\n}\n';
    expect(format(deep)).toBe('location / {\n    access_by_lua_block {\n      ngx.exit(403)\n    }\n}\n');
  });

  it('keeps a *_by_lua_block body as written when it cannot move exactly (tabs, or too few blanks)', () => {
    const tabs = 'location / {\ncontent_by_lua_block {\n\tngx.say(1)\n}\n}\n';
    expect(format(tabs)).toBe('location / {\n    content_by_lua_block {\n\tngx.say(1)\n    }\n}\n');
    const shallow = 'location / {\n        content_by_lua_block {\n  ngx.say(1)\n        }\n}\n';
    expect(format(shallow)).toBe('location / {\n    content_by_lua_block {\n  ngx.say(1)\n    }\n}\n');
  });

  it('reads white space and comments as nginx does: a form feed or vertical tab glued to # is a word, not a comment', () => {
    // nginx reads `\f#y` as sub_filter's first argument, then a string over three lines: indenting `add_header` would
    // change the replacement text it serves. Its tokens before and after formatting are the same.
    for (const space of ['\f', '\v']) {
      const text = `location / {\n    sub_filter ${space}#y '\nadd_header A b;\n    ${space}#z ';\n  return 200 "${space}#y";\n}\n`;
      const formatted = format(text);
      expect(formatted).toBe(text.replace('  return', '    return'));
      expect(nginxTokens(formatted)).toEqual(nginxTokens(text));
      // What the formatter made of it before: the string's second line indented, which nginx reads as another text.
      const before = text.replace('\nadd_header', '\n        add_header').replace('  return', '    return');
      expect(nginxTokens(before)).not.toEqual(nginxTokens(text));
    }
    // A lone CR continues a comment for nginx: `listen 81;` after it is comment text, and stays on the comment's line.
    expect(format('server {\n  listen 80; # main\rlisten 81;\n}\n')).toBe('server {\n    listen 80; # main\rlisten 81;\n}\n');
  });

  it('keeps multi-line strings as written', () => {
    const text = "location / {\n  return 200 'line one  \n      line two';\n}\n";
    expect(format(text)).toBe("location / {\n    return 200 'line one  \n      line two';\n}\n");
  });
});

describe('format: lines', () => {
  it('collapses runs of blank lines to one, and drops them at the start and end; strips trailing blanks', () => {
    expect(format('\n\nevents {}   \n\n\n\nhttp {\n\n  # note   \n}\n\n\n')).toBe('events {}\n\nhttp {\n\n    # note\n}\n');
  });

  it('keeps the file\'s line breaks (CRLF) and ends it with exactly one', () => {
    expect(format('http {\r\nserver {}\r\n}')).toBe('http {\r\n    server {}\r\n}\r\n');
  });

  it('takes the line break from the first one it lays out, not from a string or the dropped blank lines (idempotent)', () => {
    // CRLF first (a blank line at the start, dropped), then LF inside a string and a Lua body: CRLF throughout.
    const text = "\r\nlog_format x 'a\nb';\r\nhttp {\ncontent_by_lua_block {\n  ngx.say(1)\n}\n}\n";
    const once = format(text);
    expect(once).toBe("log_format x 'a\nb';\r\nhttp {\r\n    content_by_lua_block {\n      ngx.say(1)\r\n    }\r\n}\r\n");
    expect(format(once)).toBe(once);
    // LF first between statements, CRLF inside a string: LF, and the string is kept as it is.
    const mixed = "log_format x 'a\r\nb';\nevents {}\r\n";
    expect(format(mixed)).toBe("log_format x 'a\r\nb';\nevents {}\n");
    // No line break between tokens: the file's first one ends it.
    expect(format("log_format x 'a\r\nb';")).toBe("log_format x 'a\r\nb';\r\n");
  });

  it('formats an empty or blank file to an empty one', () => {
    expect(format('')).toBe('');
    expect(format(' \n\n')).toBe('');
  });

  it('is idempotent on its own output', () => {
    const once = format("http{\n server{ listen 80 ;\n log_format x '$a'\n      '$b';\n\n\n }}\n");
    expect(format(once)).toBe(once);
  });
});

describe('format: refusals', () => {
  it('does not format a file with a syntax error, and says where (as nginx would: the "}" after the missing ";")', () => {
    const result = formatDocument(parser, 'x.conf', 'http {\n    server {\n        listen 80\n    }\n}\n', DEFAULT_FORMAT_OPTIONS);
    expect(result).toMatchObject({ kind: 'refused', line: 4, column: 5 });
    expect(result.kind === 'refused' && result.reason).toMatch(/^syntax error: /);
  });

  it('refuses a text nginx reads otherwise than the grammar, with nginx\'s error, before any token could change', () => {
    // `--[ }` is a line comment in Lua (no long bracket follows), so the Lua body runs on to the last `}`; the grammar
    // ends it at the `}` in the comment, and would indent `return 200;`, which for nginx is a line of a Lua long
    // string (`[[;` … `]]`): text the Lua code reads. nginx's own reading leaves the location unclosed, and that is
    // the file's syntax error (model/nginx-first-error.ts), so the formatter's token self-check is not reached.
    const text = 'location / {\n    content_by_lua_block {\n        --[ }\nset $a [[;\nreturn 200;\nset $b ]];\n  }\n';
    const result = formatDocument(parser, 'x.conf', text, DEFAULT_FORMAT_OPTIONS);
    expect(result).toMatchObject({ kind: 'refused', reason: 'syntax error: unexpected end of file, expecting "}"', line: 8 });
  });

  it('reports no edits for a formatted file', () => {
    const result = formatDocument(parser, 'x.conf', 'http {\n    server {}\n}\n', DEFAULT_FORMAT_OPTIONS);
    expect(result).toEqual({ kind: 'formatted', text: 'http {\n    server {}\n}\n', edits: [] });
  });
});

describe('editsInRange', () => {
  it('keeps only the edits of the range\'s lines', () => {
    const text = 'http {\nserver {\n  listen   80;\nserver_name a;\n}\n}\n';
    const result = formatDocument(parser, 'x.conf', text, DEFAULT_FORMAT_OPTIONS);
    if (result.kind !== 'formatted') throw new Error('refused');
    const line3 = text.indexOf('  listen');
    const ranged = applyEdits(text, editsInRange(text, result.edits, line3, line3));
    expect(ranged).toBe('http {\nserver {\n        listen 80;\nserver_name a;\n}\n}\n');
  });

  it('returns only edits within the range, leaving a line the range cuts as it is', () => {
    const text = 'http {\nserver {\n  listen   80;\nserver_name   a;\n}\n}\n';
    const result = formatDocument(parser, 'x.conf', text, DEFAULT_FORMAT_OPTIONS);
    if (result.kind !== 'formatted') throw new Error('refused');
    const start = text.indexOf('  listen');
    const end = text.indexOf('   a;');
    const edits = editsInRange(text, result.edits, start, end);
    expect(edits.every((edit) => edit.start >= start && edit.end <= end)).toBe(true);
    expect(applyEdits(text, edits)).toBe('http {\nserver {\n        listen 80;\nserver_name   a;\n}\n}\n');
  });
});

describe('format: hostile input', () => {
  it('refuses nesting deeper than the model keeps, without exhausting the stack', () => {
    const depth = 20_000;
    const result = formatDocument(parser, 'x.conf', `${'a {'.repeat(depth)}${'}'.repeat(depth)}\n`, DEFAULT_FORMAT_OPTIONS);
    expect(result).toMatchObject({ kind: 'refused' });
  });

  it('formats a long file in linear time', () => {
    const text = `http {\n${'  add_header   X-A   "b";   # c\n'.repeat(50_000)}}\n`;
    const started = performance.now();
    const result = formatDocument(parser, 'x.conf', text, DEFAULT_FORMAT_OPTIONS);
    expect(result.kind === 'formatted' && result.text.split('\n')[1]).toBe('    add_header X-A "b"; # c');
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

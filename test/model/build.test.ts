import { describe, expect, it } from 'vitest';
import { resolveEscapes } from '../../server/src/model/arguments.js';
import { buildConfigFile, buildPlainConfigFile, buildTreeConfigFile } from '../../server/src/model/build.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import { MAX_NESTING_DEPTH } from '../../server/src/model/nesting-limit.js';
import { MAX_TEMPLATE_NESTING } from '../../server/src/model/template-guards.js';
import type { ConfigFile, Directive } from '../../server/src/model/types.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';
import { allDirectives, findDirective, parseModel } from './support.js';

describe('buildConfigFile: directives', () => {
  it('builds names, arguments, blocks, parents and the file link', async () => {
    const text = 'http {\n  upstream app { server 10.0.0.1:8080; }\n  server { listen 80; }\n}\n';
    const file = await parseModel(text);
    const http = file.directives[0]!;
    expect(http.name).toBe('http');
    expect(http.children.map((d) => d.name)).toEqual(['upstream', 'server']);
    const upstream = http.children[0]!;
    expect(upstream.args.map((a) => a.value)).toEqual(['app']);
    expect(upstream.parent).toBe(http);
    expect(upstream.file).toBe(file);
    expect(text.slice(upstream.span.startOffset, upstream.span.endOffset)).toBe('upstream app { server 10.0.0.1:8080; }');
    expect(text.slice(upstream.blockSpan!.startOffset, upstream.blockSpan!.endOffset)).toBe('{ server 10.0.0.1:8080; }');
    const listen = findDirective(file, 'listen');
    expect(listen.blockSpan).toBeUndefined();
    expect(text.slice(listen.span.startOffset, listen.span.endOffset)).toBe('listen 80;');
  });

  it('keeps the if condition and leaves a lua block body opaque', async () => {
    const file = await parseModel('if ($host = "a") { return 404; }\ncontent_by_lua_block { ngx.say("}") }\n');
    expect(file.directives[0]!.condition).toBe('($host = "a")');
    expect(file.directives[0]!.children.map((d) => d.name)).toEqual(['return']);
    const lua = file.directives[1]!;
    expect(lua.blockSpan).toBeDefined();
    expect(lua.children).toEqual([]);
  });

  it('names map entries by their key token value', async () => {
    const file = await parseModel("map $a $b { '' close; ~^/x 1; default 0; }\n");
    expect(file.directives[0]!.children.map((d) => d.name)).toEqual(['', '~^/x', 'default']);
  });

  it('keeps directives that follow a stray closing brace', async () => {
    const file = await parseModel('a b;\n} c d;\n');
    expect(file.directives.map((d) => d.name)).toEqual(['a', 'c']);
    expect(file.syntaxProblems.length).toBeGreaterThan(0);
  });

  it('records the indentation of the directive line', async () => {
    const file = await parseModel('http {\n\tserver {\n    listen 80; server_name x;\n\t}\n}\n');
    expect(findDirective(file, 'server').indent).toBe('\t');
    expect(findDirective(file, 'listen').indent).toBe('    ');
    expect(findDirective(file, 'server_name').indent).toBe('    ');
    expect(findDirective(file, 'http').indent).toBe('');
  });

  it('detects the line ending', async () => {
    expect((await parseModel('listen 80;\r\nlisten 81;\r\n')).eol).toBe('\r\n');
    expect((await parseModel('listen 80;\nlisten 81;\n')).eol).toBe('\n');
  });
});

describe('buildConfigFile: arguments', () => {
  it('removes quotes and resolves escapes as nginx does', async () => {
    const file = await parseModel(String.raw`add_header X "a\"b\tc\\d\qe" 'f\'g' h\"i;` + '\n');
    const [name, double, single, bare] = findDirective(file, 'add_header').args;
    expect(name!.quoted).toBe(false);
    expect(double!.quoted).toBe('"');
    expect(double!.raw).toBe(String.raw`"a\"b\tc\\d\qe"`);
    expect(double!.value).toBe('a"b\tc\\d\\qe');
    expect(single!.quoted).toBe("'");
    expect(single!.value).toBe("f'g");
    expect(bare!.value).toBe('h"i');
  });

  it('resolveEscapes handles pairs left to right', () => {
    expect(resolveEscapes(String.raw`\\n`)).toBe('\\n');
    expect(resolveEscapes(String.raw`a\nb\rc`)).toBe('a\nb\rc');
    expect(resolveEscapes('trailing\\')).toBe('trailing\\');
  });

  it('finds variables with their spans', async () => {
    const text = 'proxy_pass http://$host${uri}x;\n';
    const arg = findDirective(await parseModel(text), 'proxy_pass').args[0]!;
    expect(arg.variables.map((v) => v.name)).toEqual(['host', 'uri']);
    expect(arg.variables.map((v) => text.slice(v.span.startOffset, v.span.endOffset))).toEqual(['$host', '${uri}']);
    expect(arg.templated).toBe(false);
  });

  it('marks template actions and keeps them verbatim in the value', async () => {
    const text = 'proxy_pass http://{{ $.APP }}-x "a\\"b {{ .Z }}";\n';
    const file = await parseModel(text);
    const [first, second] = findDirective(file, 'proxy_pass').args;
    expect(first!.templated).toBe(true);
    expect(first!.value).toBe('http://{{ $.APP }}-x');
    expect(second!.value).toBe('a"b {{ .Z }}');
    expect(file.isTemplate).toBe(true);
    expect((await parseModel('listen 80;\n')).isTemplate).toBe(false);
  });
});

describe('buildConfigFile: spans are UTF-16 based', () => {
  it('counts a non-BMP character as two code units on the same line', async () => {
    const text = '# é😀\nadd_header "é😀" y;\n';
    const file = await parseModel(text);
    const directive = findDirective(file, 'add_header');
    expect(directive.nameSpan.startOffset).toBe(text.indexOf('add_header'));
    expect(directive.nameSpan.start).toEqual({ line: 1, column: 0 });
    const y = directive.args[1]!;
    expect(y.span.startOffset).toBe(text.lastIndexOf('y'));
    expect(y.span.start).toEqual({ line: 1, column: 'add_header "é😀" '.length });
    expect(directive.args[0]!.value).toBe('é😀');
  });
});

describe('buildConfigFile: stated context', () => {
  it('reads the context from the leading comments', async () => {
    const file = await parseModel('# site config\n\n# nginx-keepalive: context=server\nlisten 80;\n');
    expect(file.statedContext).toBe('server');
  });

  it('ignores the comment after the first statement and unknown names', async () => {
    expect((await parseModel('listen 80;\n# nginx-keepalive: context=server\n')).statedContext).toBeUndefined();
    expect((await parseModel('# nginx-keepalive: context=nowhere\n')).statedContext).toBeUndefined();
  });
});

describe('buildConfigFile: template guards', () => {
  it('pairs if / else / end across nginx blocks', async () => {
    const text = [
      '{{ if $.SSL }}',
      'server {',
      '  listen 443;',
      '{{ else }}',
      '  listen 80;',
      '}',
      '{{ end }}',
      'upstream u { server a; }',
    ].join('\n');
    const file = await parseModel(text);
    expect(file.templateControls.map((c) => c.keyword)).toEqual(['if', 'else', 'end']);
    const server = findDirective(file, 'server');
    expect(server.guards).toHaveLength(1);
    expect(server.guards[0]!.control.pipeline).toBe('$.SSL');
    expect(server.guards[0]!.inElse).toBe(false);
    const [https, http] = [findDirective(file, 'listen', 0), findDirective(file, 'listen', 1)];
    expect(https.guards.map((g) => g.inElse)).toEqual([false]);
    expect(http.guards.map((g) => g.inElse)).toEqual([true]);
    expect(http.guards[0]!.control.keyword).toBe('if');
    expect(http.guards[0]!.branch?.keyword).toBe('else');
    expect(findDirective(file, 'upstream').guards).toEqual([]);
  });

  it('nests range inside if, outermost first, and reads else if', async () => {
    const text = [
      '{{ if $.A }}',
      '{{ range $p := .PORTS }}',
      'listen {{ $p }};',
      '{{ end }}',
      '{{ else if $.B }}',
      'listen 81;',
      '{{ end }}',
    ].join('\n');
    const file = await parseModel(text);
    const inner = findDirective(file, 'listen', 0);
    expect(inner.guards.map((g) => g.control.keyword)).toEqual(['if', 'range']);
    expect(inner.guards[1]!.control.pipeline).toBe('$p := .PORTS');
    const other = findDirective(file, 'listen', 1);
    expect(other.guards).toHaveLength(1);
    expect(other.guards[0]!.inElse).toBe(true);
    expect(other.guards[0]!.branch).toMatchObject({ keyword: 'else if', pipeline: '$.B' });
  });

  it('keeps at most MAX_TEMPLATE_NESTING guards per directive and reports the first level beyond it', async () => {
    // 3,000 nested `{{ if }}`, a directive at every level: full guard lists would hold 4.5 million entries (memory and
    // copying quadratic in the nesting); capped, the model stays linear. The levels within the cap are exact.
    const depth = 3_000;
    const text = Array.from({ length: depth }, (_, i) => `{{ if $.L${i} }}\nlisten ${i};\n`).join('') + '{{ end }}\n'.repeat(depth);
    const file = await parseModel(text, '/virtual/deep.conf.sigil');
    const listens = allDirectives(file.directives);
    expect(listens).toHaveLength(depth);
    const entries = listens.reduce((sum, directive) => sum + directive.guards.length, 0);
    expect(entries).toBeLessThanOrEqual(MAX_TEMPLATE_NESTING * depth);
    expect(listens[MAX_TEMPLATE_NESTING - 1]!.guards.map((guard) => guard.control.pipeline)).toEqual(
      Array.from({ length: MAX_TEMPLATE_NESTING }, (_, i) => `$.L${i}`),
    );
    expect(file.syntaxProblems).toEqual([
      {
        message: `template blocks nested more than ${MAX_TEMPLATE_NESTING} levels deep are not tracked (this one and any deeper)`,
        span: file.templateControls[MAX_TEMPLATE_NESTING]!.span,
      },
    ]);
  });

  it('an else or end beyond the cap leaves the guards within it alone', async () => {
    const deep = '{% if a %}\n'.repeat(MAX_TEMPLATE_NESTING + 5) + '{% else %}\n' + '{% endif %}\n'.repeat(MAX_TEMPLATE_NESTING + 4);
    const file = await parseModel(`${deep}listen 1;\n{% else %}\nlisten 2;\n{% endif %}\nlisten 3;\n`, '/virtual/t.conf.j2');
    expect(findDirective(file, 'listen', 0).guards.map((guard) => guard.inElse)).toEqual([false]);
    expect(findDirective(file, 'listen', 1).guards.map((guard) => guard.inElse)).toEqual([true]);
    expect(findDirective(file, 'listen', 2).guards).toEqual([]);
  });

  it('tolerates unbalanced actions', async () => {
    const file = await parseModel('{{ end }}\n{{ else }}\nlisten 80;\n{{ if $.X }}\nlisten 81;\n');
    expect(findDirective(file, 'listen', 0).guards).toEqual([]);
    expect(findDirective(file, 'listen', 1).guards.map((g) => g.control.pipeline)).toEqual(['$.X']);
  });

  it('does not treat actions inside an argument as statement guards', async () => {
    const file = await parseModel('listen 80{{ if $.X }} ssl{{ end }};\nlisten 81;\n');
    expect(findDirective(file, 'listen', 1).guards).toEqual([]);
  });
});

/** A model without its back links (each directive's file and parent), directives flattened in document order. */
function view(file: ConfigFile): unknown {
  const flat = (d: Directive) => ({ ...d, file: undefined, parent: d.parent?.name, children: d.children.length });
  return { ...file, directives: allDirectives(file.directives).map(flat) };
}

describe('parseFile: the text reader is asked once', () => {
  // parseFile offers the text to the reader first and parses only when it declines; the reader's answer depends on
  // the text alone, so the parsed file goes straight to the tree walk (buildTreeConfigFile). Its model must be the one
  // buildConfigFile (which offers the reader the text itself) builds from the same tree.
  const texts = {
    plain: 'http {\n  server { listen 80; }\n}\n',
    template: 'server {\n  {{ if .Ssl }}listen 443 ssl;{{ end }}\n}\n',
    jinja: 'server {\n  {% if ssl %}listen 443;{% endif %}\n}\n',
    lua: 'location / {\n  content_by_lua_block { ngx.say("}") }\n}\n',
    // Openers inside a Lua body are Lua's (lua-resty-template): the text is still plain.
    luaTemplate: 'init_by_lua_block {\n  t = [[ {% if x then %}{{y}}{# c #} ]] -- {{\n}\nlisten 80;\n',
    luaThenTemplate: 'init_by_lua_block { t = "{%" }\nlisten {{ .PORT }};\n',
    broken: 'server {\n  listen 80\n',
  };
  for (const [kind, text] of Object.entries(texts)) {
    it(`${kind}: the same model as buildConfigFile`, async () => {
      const parser = await loadNginxParser();
      const loaded = parseFile(parser, '/virtual/x.conf', text);
      expect(buildPlainConfigFile('/virtual/x.conf', text) === undefined).toBe(!['plain', 'lua', 'luaTemplate'].includes(kind));
      const tree = parser.parse(text);
      try {
        expect(view(loaded)).toEqual(view(buildConfigFile('/virtual/x.conf', text, tree)));
        expect(view(loaded)).toEqual(view(buildTreeConfigFile('/virtual/x.conf', text, tree)));
      } finally {
        tree.delete();
      }
    });
  }
});

describe('the nesting limit on a text the reader reads', () => {
  // The reader reads blocks up to twice MAX_NESTING_DEPTH deep, and the limit is applied only when it read past it.
  const nested = (levels: number) => `${'location / {\n'.repeat(levels)}return 200;\n${'}\n'.repeat(levels)}`;
  for (const levels of [MAX_NESTING_DEPTH - 1, MAX_NESTING_DEPTH, MAX_NESTING_DEPTH + 50]) {
    it(`${levels} nested blocks: cut as the tree walk cuts them`, async () => {
      const text = nested(levels);
      const plain = buildPlainConfigFile('/virtual/x.conf', text);
      expect(plain).toBeDefined();
      const tree = (await loadNginxParser()).parse(text);
      try {
        expect(view(plain!)).toEqual(view(buildTreeConfigFile('/virtual/x.conf', text, tree)));
      } finally {
        tree.delete();
      }
      const cut = plain!.syntaxProblems.filter((problem) => problem.message.startsWith('blocks nested more than'));
      expect(cut.map((problem) => problem.span.start.line)).toEqual(levels < MAX_NESTING_DEPTH ? [] : [MAX_NESTING_DEPTH]);
    });
  }
});

// Template dialects (issue 11 item 2): Jinja2 tags beside Go actions, the dialect of a file, and envsubst `${VAR}`
// placeholders, which stay nginx variables and are never reported.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import type { FileHost } from '../../server/src/util/types.js';
import { formatControl } from '../../server/src/model/template-guards.js';
import { dialectByName, templateDialectOf } from '../../server/src/model/template-dialect.js';
import { findDirective, parseModel } from './support.js';

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };

describe('template dialect of a file', () => {
  it('is chosen by name first, then by content', () => {
    expect(dialectByName('/x/nginx.conf.j2')).toBe('jinja');
    expect(dialectByName('/x/site.jinja')).toBe('jinja');
    expect(dialectByName('/x/site.JINJA2')).toBe('jinja');
    expect(dialectByName('/x/nginx.conf.sigil')).toBe('go');
    expect(dialectByName('/x/nginx.tmpl')).toBe('go');
    expect(dialectByName('/x/default.conf.template')).toBeUndefined();
    expect(templateDialectOf('/x/a.conf', '{% if x %}listen 80;{% endif %}\n')).toBe('jinja');
    expect(templateDialectOf('/x/a.conf', '{# note #}\nlisten {{ port }};\n')).toBe('jinja');
    expect(templateDialectOf('/x/a.conf', 'listen {{ $.PORT }};\n')).toBe('go');
    // An unclosed `{#` is nginx's block brace and a comment, no Jinja.
    expect(templateDialectOf('/x/a.conf', 'server {# main\n listen {{ .Port }};\n}\n')).toBe('go');
    // The name wins over the content.
    expect(templateDialectOf('/x/a.tmpl', '{% if x %}{% endif %}')).toBe('go');
  });

  it('is recorded on template files only', async () => {
    expect((await parseModel('listen 80;\n', '/x/a.conf.j2')).templateDialect).toBeUndefined();
    expect((await parseModel('listen {{ port }};\n', '/x/a.conf.j2')).templateDialect).toBe('jinja');
    expect((await parseModel('listen {{ .Port }};\n', '/x/a.conf')).templateDialect).toBe('go');
    const jinja = await parseModel('{# only a comment #}\nlisten 80;\n', '/x/a.conf');
    expect(jinja.isTemplate).toBe(true);
    expect(jinja.templateDialect).toBe('jinja');
  });
});

describe('Jinja2 tags in the model', () => {
  it('reads {% if %} / {% for %} as guards, with elif/else branches and end tags, trim markers included', async () => {
    const text = [
      'upstream app {',
      '{%- for host in hosts %}',
      '  server {{ host }};',
      '{% endfor -%}',
      '{% if keepalive %}',
      '  keepalive {{ keepalive }};',
      '{%- elif fallback %}',
      '  keepalive 8;',
      '{% else %}',
      '  keepalive 2;',
      '{%+ endif %}',
      '  zone app 64k;',
      '}',
      '',
    ].join('\n');
    const file = await parseModel(text, '/x/upstream.conf.j2');
    expect(file.syntaxProblems).toEqual([]);
    expect(file.templateControls.map((c) => [c.keyword, c.tag, c.pipeline])).toEqual([
      ['range', 'for', 'host in hosts'],
      ['end', 'endfor', ''],
      ['if', 'if', 'keepalive'],
      ['else if', 'elif', 'fallback'],
      ['else', 'else', ''],
      ['end', 'endif', ''],
    ]);
    const server = findDirective(file, 'server');
    expect(server.guards.map((g) => formatControl(g.control))).toEqual(['{% for host in hosts %}']);
    expect(server.args[0]!.templated).toBe(true);
    expect(findDirective(file, 'keepalive', 0).guards[0]!.inElse).toBe(false);
    expect(findDirective(file, 'keepalive', 1).guards[0]!.branch?.tag).toBe('elif');
    expect(findDirective(file, 'keepalive', 2).guards[0]!.branch?.tag).toBe('else');
    expect(findDirective(file, 'zone').guards).toEqual([]);
  });

  it('pairs scopes that guard nothing ({% with %}, {% filter %}) and keeps {% set x = 1 %} out of the pairing', async () => {
    const text = '{% with a = 1 %}{% set b = 2 %}\nkeepalive 4;\n{% endwith %}\n{% if x %}{% filter upper %}\nzone z;\n{% endfilter %}{% endif %}\nlisten 1;\n';
    const file = await parseModel(text, '/x/a.j2');
    expect(findDirective(file, 'keepalive').guards).toEqual([]);
    expect(findDirective(file, 'zone').guards.map((g) => g.control.tag)).toEqual(['if']);
    expect(findDirective(file, 'listen').guards).toEqual([]);
  });

  it('reads {{ }} in a Jinja file as an expression, whatever its first word', async () => {
    const text = 'listen {{ range(80, 81) | first }};\n{{ with }}\nkeepalive 1;\n';
    const jinja = await parseModel(text, '/x/a.conf.j2');
    expect(jinja.templateControls).toEqual([]);
    expect(findDirective(jinja, 'keepalive').guards).toEqual([]);
    const go = await parseModel(text, '/x/a.tmpl');
    expect(findDirective(go, 'keepalive').guards.map((g) => g.control.keyword)).toEqual(['with']);
  });

  it('takes Jinja tags and comments in arguments and block names as template parts', async () => {
    const text =
      'server_name {% for n in names %}{{ n }} {% endfor %};\nlisten 80{# tls off #} default_server;\nlocation {% if p %}/a{% else %}/b{% endif %} { return 200 "x{# c #}y"; }\n';
    const file = await parseModel(text, '/x/a.conf.j2');
    expect(file.syntaxProblems).toEqual([]);
    expect(findDirective(file, 'server_name').args.map((a) => [a.raw, a.templated])).toEqual([
      ['{% for n in names %}{{ n }}', true],
      ['{% endfor %}', true],
    ]);
    expect(findDirective(file, 'listen').args.map((a) => a.raw)).toEqual(['80{# tls off #}', 'default_server']);
    expect(findDirective(file, 'location').args[0]!.templated).toBe(true);
    expect(findDirective(file, 'return').args[1]!.templated).toBe(true);
  });

  it('leaves a `{#` nobody closes to nginx: a block brace and a comment', async () => {
    const file = await parseModel('server {# the main site\n  listen 80;\n}\n', '/x/a.conf');
    expect(file.syntaxProblems).toEqual([]);
    expect(file.isTemplate).toBe(false);
    expect(findDirective(file, 'listen').parent?.name).toBe('server');
  });
});

describe('envsubst placeholders', () => {
  // The official nginx Docker image's templates/*.conf.template: envsubst renders ${VAR} before nginx starts.
  const template = [
    'upstream backend {',
    '  server ${BACKEND_HOST}:${BACKEND_PORT};',
    '  keepalive 16;',
    '}',
    'server {',
    '  listen ${NGINX_PORT};',
    '  server_name ${NGINX_HOST};',
    '  location / {',
    '    proxy_http_version 1.1;',
    '    proxy_set_header Connection "";',
    '    proxy_set_header Host ${NGINX_HOST};',
    '    proxy_pass http://backend;',
    '  }',
    '}',
    '',
  ].join('\n');

  it('parse as nginx variables, and the file is no template', async () => {
    const file = await parseModel(template, '/x/templates/default.conf.template');
    expect(file.syntaxProblems).toEqual([]);
    expect(file.isTemplate).toBe(false);
    expect(findDirective(file, 'listen').args[0]!.variables.map((v) => v.name)).toEqual(['NGINX_PORT']);
    expect(findDirective(file, 'server', 0).args[0]!.variables.map((v) => v.name)).toEqual(['BACKEND_HOST', 'BACKEND_PORT']);
  });

  it('are never reported (no rule reports an unknown variable), in a plain or a Jinja template', async () => {
    const plain = await analyze([{ path: '/x/templates/default.conf.template', text: template }], { host: isolated });
    expect(plain).toEqual([]);
    const jinja = `{# rendered by Ansible, then by envsubst #}\n${template}`;
    const findings = await analyze([{ path: '/x/default.conf.template.j2', text: jinja }], { host: isolated });
    expect(findings).toEqual([]);
  });
});

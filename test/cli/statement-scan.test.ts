// The --jobs statement scan (predict-groups' guess at which files are linked), read with the model's tokenizer
// (cli/parallel/linking-statements.ts, issue 12 item 4): the same statements as the raw-text scan it replaced, and no
// hang on arguments made of template actions (issue 10, item 2).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { predictGroups } from '../../server/src/cli/parallel/predict-groups.js';
import { statementsOf } from '../../server/src/cli/parallel/linking-statements.js';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();

/** The issue's repro: an include whose argument is forty empty actions, then a second argument. */
const EMPTY_ACTIONS_INCLUDE = `include ${'{{}}'.repeat(40)} x\n`;

describe('statementsOf', () => {
  it('finds includes, upstreams and passes, quoted, templated or spread over lines', () => {
    const text = [
      'include conf.d/*.conf;',
      'include "with space.conf" ;',
      "include\n  'single.conf'\n;",
      'upstream {{ $.APP }}-{{ $port }} {',
      'proxy_pass http://{{ $.APP }}-5000;',
      'fastcgi_pass unix:/run/php.sock;',
      'xinclude not.conf; my_include not.conf;',
      'include {{ if x }};{{ end }}.conf;',
      'include "a"b;',
    ].join('\n');
    expect(statementsOf(text)).toEqual({
      includes: ['conf.d/*.conf', 'with space.conf', 'single.conf', '{{ if x }}', '"a"b'],
      upstreams: ['{{ $.APP }}-{{ $port }}'],
      passes: ['http://{{ $.APP }}-5000', 'unix:/run/php.sock'],
    });
  });

  it('takes an action to the first }} on its line, and a {{ without one ends the argument', () => {
    expect(statementsOf('include a{{ x }}b;\ninclude c{{ y\n}};\ninclude d;').includes).toEqual(['a{{ x }}b', 'd']);
  });

  it("returns at once on the issue's include of forty empty actions, and on longer runs", () => {
    expect(statementsOf(EMPTY_ACTIONS_INCLUDE).includes).toEqual([]);
    expect(statementsOf(`include ${'{{}}'.repeat(100_000)} x;`).includes).toEqual([]);
    expect(statementsOf(`proxy_pass ${'{{}}'.repeat(100_000)} x;`).passes).toEqual(['{{}}'.repeat(100_000)]);
  });

  it('returns at once when keywords hide inside each other\'s arguments', () => {
    // Each include's argument runs through all the later ones to the single }}: scanned once, not once per include.
    const nested = `${'include {{ '.repeat(50_000)}}}${'a'.repeat(100_000)}${' '.repeat(100_000)}x`;
    expect(statementsOf(nested).includes).toEqual([]);
    const unclosed = `${'include {{'.repeat(100_000)}`;
    expect(statementsOf(unclosed).includes).toEqual([]);
  });
});

describe('statementsOf, as the model tokenizes', () => {
  it('skips comments, keeps a `;` inside a string, resolves escapes and steps over standalone template tags', () => {
    const text = [
      '# include commented.conf;',
      'include "semi;colon.conf"; # fastcgi_pass unix:/commented.sock;',
      'include "say \\"hi\\".conf";',
      '{% for app in apps %}',
      'upstream {{ app.name }} {',
      '{% endfor %}',
      '{{ if .SSL }}proxy_pass https://secure;{{ end }}',
      '{# include jinja-comment.conf; #}',
      'uwsgi_pass "{{ .Host }}:{{ .Port }}";',
    ].join('\n');
    expect(statementsOf(text)).toEqual({
      includes: ['semi;colon.conf', 'say "hi".conf'],
      upstreams: ['{{ app.name }}'],
      passes: ['https://secure', '{{ .Host }}:{{ .Port }}'],
    });
  });

  it('reads on past what the tokenizer gives up on: an unterminated string, a `${` that is no variable', () => {
    expect(statementsOf('set $a "${";\ninclude a.conf;\nset $b ${ x;\ninclude b.conf;\nreturn \'oops;\n').includes).toEqual([
      'a.conf',
      'b.conf',
    ]);
  });

  it('returns at once on long runs of tokens the tokenizer gives up on', () => {
    const runs = [
      'include "${ '.repeat(20_000),
      'proxy_pass "{{ '.repeat(20_000),
      `${'$'.repeat(20_000)}${'${'.repeat(20_000)}`,
      `${"include '".repeat(100_000)}${'"'.repeat(100_000)}`,
      `${'{%'.repeat(100_000)}\n%}`,
      `${'{{ a\n'.repeat(100_000)}}}`,
    ];
    for (const text of runs) expect(statementsOf(text).includes).toEqual([]);
  });
});

describe('predictGroups', () => {
  it('groups the issue\'s include next to a large file without hanging', () => {
    const root = '/virtual';
    const documents = [
      { path: path.join(root, 'a.conf'), text: EMPTY_ACTIONS_INCLUDE },
      { path: path.join(root, 'big.conf'), text: 'server { listen 80; }\n'.repeat(50_000) },
      { path: path.join(root, 'c.conf'), text: 'include big.conf;\n' },
    ];
    expect(predictGroups(documents, { readRoots: [root], pathMap: [] })).toEqual([[0], [1, 2]]);
  });

  it('check with several jobs finishes on it (the CLI used to hang)', () => {
    const root = tree({
      // `*.nginx`: claimed by name, however little of the text reads as nginx.
      'a.nginx': EMPTY_ACTIONS_INCLUDE,
      'big.conf': 'events {}\n'.repeat(120_000),
    });
    // 120,000 `events {}`: nginx refuses the second (directive), and that is not what this is about.
    const result = runCli(root, ['check', '--jobs', '2', '--format', 'json', '--rule', 'syntax=off', '--rule', 'directive=off', '.']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

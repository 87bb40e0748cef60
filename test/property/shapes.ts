// Generators of hostile *shapes*, not random bytes: the structures behind the hangs and crashes that mutation of real
// files never reached (issue 10). Each shape is a family scaled by a size, so fast-check explores small instances
// most of the time and a huge one now and then:
//   - long runs of empty or tiny template actions (`{{}}` × n), in statement position, inside an argument, after
//     `include`, before `: value` (a YAML-looking template) or a stray `!`: what made the file sniff and the --jobs
//     include scan backtrack exponentially;
//   - template control actions nested deep inside one argument (`http://{{ if .A }}{{ if .B }}…{{ end }}{{ end }}`);
//   - template blocks nested deep at statement level (`{{ if }}` / `{% if %}` × n, with else branches and directives
//     between): what made the open-scope list quadratic (issue 26);
//   - unclosed Go comments (`{{/*` × n): what made the grammar's scanner read to the end of the file once each;
//   - huge statement counts (`{}` × n, `;` × n, n locations proxying to one upstream): what overflowed
//     `push(...array)` and made fix merging quadratic.
import fc from 'fast-check';

/**
 * Mostly small, sometimes large, rarely huge (past the ~125,000 arguments a `push(...array)` overflows at): fuzzing
 * reaches the huge sizes a few dozen times in 20,000 runs without every run paying for them.
 */
export const shapeSize: fc.Arbitrary<number> = fc.oneof(
  { weight: 250, arbitrary: fc.integer({ min: 1, max: 60 }) },
  { weight: 40, arbitrary: fc.integer({ min: 60, max: 2_000 }) },
  { weight: 4, arbitrary: fc.integer({ min: 2_000, max: 20_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 125_000, max: 150_000 }) },
);

/** Template actions that are empty, tiny or unbalanced: each one a place where a lazy `.*?` could restart. */
const ACTION = fc.constantFrom('{{}}', '{{ }}', '{{ .V }}', '{{-}}', '{{ $ }}', '{{', '}}', '{{"}}"}}', '{{/**/}}');

/** A run of n actions of one kind, or alternating with bare text, as one string. */
const actionRun = fc
  .record({ action: ACTION, between: fc.constantFrom('', ' ', 'x', '\t', ':'), size: shapeSize })
  .map(({ action, between, size }) => Array.from({ length: Math.min(size, 20_000) }, () => action).join(between));

/** Where a run lands: the contexts of the two exponential regexps and of the grammar's template scanner. */
const runContext = fc.constantFrom(
  (run: string) => run,
  (run: string) => `${run}!`,
  (run: string) => `${run}: value\n`,
  (run: string) => `include ${run} x;\n`,
  (run: string) => `include ${run}`,
  (run: string) => `server { listen 80; location / { proxy_pass http://${run}; } }\n`,
  (run: string) => `upstream ${run} { server 127.0.0.1; }\n`,
  (run: string) => `proxy_pass ${run}`,
  (run: string) => `location /a { ${run} }\n`,
  (run: string) => `map $a ${run} { default x; }\n`,
);

export const templateRun: fc.Arbitrary<string> = fc.tuple(actionRun, runContext).map(([run, place]) => place(run));

/** Control actions nested `depth` deep inside one argument, optionally left unclosed. */
export const nestedTemplateArgument: fc.Arbitrary<string> = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 30, max: 3_000 })),
    opener: fc.constantFrom('{{ if .A }}', '{{ range $x := .L }}', '{{ with .W }}', '{{- if eq .A "b" -}}'),
    closed: fc.boolean(),
    directive: fc.constantFrom('proxy_pass http://', 'include ', 'server_name ', 'upstream ', 'proxy_set_header Connection '),
  })
  .map(({ depth, opener, closed, directive }) => {
    const open = opener.repeat(depth);
    const close = closed ? '{{ end }}'.repeat(depth) : '';
    const body = `${directive}${open}app${close};\n`;
    return directive === 'upstream ' ? `${directive}${open}app${close} { server 127.0.0.1; }\n` : body;
  });

/** Template blocks nested `depth` deep at statement level, in either dialect, some levels with a branch or a directive. */
export const nestedTemplateStatements: fc.Arbitrary<string> = fc
  .record({
    depth: shapeSize.map((size) => Math.min(size, 30_000)),
    dialect: fc.constantFrom(
      { open: '{{ if .A }}', branch: '{{ else }}', end: '{{ end }}' },
      { open: '{{ range .L }}', branch: '{{ else if .B }}', end: '{{ end }}' },
      { open: '{% if a %}', branch: '{% elif b %}', end: '{% endif %}' },
      { open: '{% for x in y %}', branch: '{% else %}', end: '{% endfor %}' },
    ),
    every: fc.constantFrom(0, 1, 7),
    closed: fc.boolean(),
  })
  .map(({ depth, dialect, every, closed }) => {
    const lines: string[] = ['server {'];
    for (let i = 0; i < depth; i++) {
      lines.push(dialect.open);
      if (every > 0 && i % every === 0) lines.push(`listen ${1 + (i % 60_000)};`, dialect.branch, 'listen 81;');
    }
    lines.push('location / { proxy_pass http://app; }');
    if (closed) for (let i = 0; i < depth; i++) lines.push(dialect.end);
    lines.push('}', 'upstream app { server 127.0.0.1:8081; }', '');
    return lines.join('\n');
  });

/** Unclosed Go comments, n of them, each followed by a little text: a scanner that seeks `*\/}}` must not rescan. */
export const unclosedComments: fc.Arbitrary<string> = fc
  .record({
    size: shapeSize.map((size) => Math.min(size, 20_000)),
    opener: fc.constantFrom('{{/*', '{{- /*', '{{/* x *', '{{/* */ }'),
    between: fc.constantFrom(' ', '\n', 'listen 80;\n', '*/', '}}'),
  })
  .map(({ size, opener, between }) => `server {\n${`${opener}${between}`.repeat(size)}\n}\n`);

/** Huge numbers of statements: empty blocks, empty statements, or locations sharing one upstream without keepalive. */
export const hugeStatements: fc.Arbitrary<string> = fc
  .record({ kind: fc.constantFrom('braces', 'semicolons', 'locations', 'upstreams'), size: shapeSize })
  .map(({ kind, size }) => {
    switch (kind) {
      case 'braces':
        return '{}'.repeat(size);
      case 'semicolons':
        return ';'.repeat(size);
      case 'locations': {
        const count = Math.min(size, 30_000);
        const locations = Array.from({ length: count }, (_, i) => `location /l${i} { proxy_pass http://app; }`).join('\n');
        return `upstream app { server 127.0.0.1:8081; }\nserver {\nlisten 80;\n${locations}\n}\n`;
      }
      default: {
        const count = Math.min(size, 20_000);
        return Array.from({ length: count }, (_, i) => `upstream u${i} { server 127.0.0.1:${1 + (i % 60_000)}; }`).join('\n');
      }
    }
  });

/** Any of the shapes, optionally wrapped in an http block so the rules that need one see it. */
export const hostileShape: fc.Arbitrary<string> = fc
  .tuple(fc.oneof(templateRun, nestedTemplateArgument, nestedTemplateStatements, unclosedComments, hugeStatements), fc.boolean())
  .map(([text, wrap]) => (wrap ? `http {\n${text}\n}\n` : text));

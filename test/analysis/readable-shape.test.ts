// readableShape() stands for what every rule but `directive` can read of a block: the language server keeps those
// rules' findings when an edit leaves it unchanged (engine/block-rerun.ts). Two halves: the names the code reads are
// all in READ_ARGUMENTS (a scan of the sources, so a rule that starts reading a new directive fails here until the
// list has it), and the shape changes with what those rules read and only with that.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_ARGUMENTS, readableShape } from '../../server/src/analysis/readable-shape.js';
import { allDirectives } from '../../server/src/model/directive-table.js';
import { parseFile } from '../../server/src/model/file-loader.js';
import { loadNginxParser } from '../../server/src/parser/loader.js';

const SOURCE = path.resolve(import.meta.dirname, '../../server/src');
/** The `directive` rule's own files: it looks within a block itself (Rule.detectWithin) and reads every argument. */
const DIRECTIVE_RULE_FILES = new Set([
  'directive.ts', 'directive-checks.ts', 'directive-walk.ts', 'directive-duplicates.ts', 'directive-values.ts', 'directive-value-headlines.ts', 'loaded-modules.ts', 'location-nesting.ts',
  'empty-upstream.ts', 'map-entries.ts',
  'readable-shape.ts',
]);

/** Code without comments: a name in a comment is read by nobody. */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.replace(/(^|\s)\/\/.*$/, ''))
    .join('\n');
}

function ruleSources(): Array<[string, string]> {
  return ['analysis', 'fixes', 'rules'].flatMap((dir) =>
    readdirSync(path.join(SOURCE, dir))
      .filter((name) => name.endsWith('.ts') && !DIRECTIVE_RULE_FILES.has(name))
      .map((name): [string, string] => [`${dir}/${name}`, code(path.join(SOURCE, dir, name))]),
  );
}

describe('READ_ARGUMENTS', () => {
  const tableNames = new Set(allDirectives().map((entry) => entry.name));

  it('holds every directive name the analysis, the fixes and the rules (but `directive`) quote or use as a key', () => {
    const missing: string[] = [];
    for (const [file, text] of ruleSources()) {
      for (const match of text.matchAll(/['"`]([a-z][a-z0-9_]*)['"`]|\b([a-z][a-z0-9_]*)\s*:/g)) {
        const name = match[1] ?? match[2]!;
        if (tableNames.has(name) && !READ_ARGUMENTS.has(name) && !name.endsWith('_pass')) missing.push(`${file}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is the whole story: no code there picks directives by a part of their name other than the `_pass` suffix', () => {
    const partial: string[] = [];
    for (const [file, text] of ruleSources()) {
      for (const match of text.matchAll(/\.name\.(startsWith|endsWith|includes)\(([^)]*)\)/g)) {
        if (!(match[1] === 'endsWith' && match[2] === "'_pass'")) partial.push(`${file}: ${match[0]}`);
      }
    }
    expect(partial).toEqual([]);
  });
});

describe('readableShape', () => {
  async function shapeOf(text: string): Promise<string> {
    const file = parseFile(await loadNginxParser(), '/shape.conf', text);
    expect(file.syntaxProblems).toEqual([]);
    return readableShape(file.directives[0]!);
  }
  const server = (body: string) => `server {\n    listen 80;\n    location / {\n        ${body}\n    }\n}\n`;

  it('does not change with arguments no rule but `directive` reads', async () => {
    const base = await shapeOf(server('client_max_body_size 10m; return 301 /new;'));
    expect(await shapeOf(server('client_max_body_size 20m; return 302 /other;'))).toBe(base);
    expect(await shapeOf(server('client_max_body_size 10m; return 301 /new;').replace('listen 80', 'listen 8080'))).toBe(base);
  });

  it('changes with what the keepalive analysis reads', async () => {
    const base = await shapeOf(server('proxy_pass http://app; proxy_set_header Connection "";'));
    const changed = [
      server('proxy_pass http://app2; proxy_set_header Connection "";'),
      server("proxy_pass http://app; proxy_set_header Connection '';"),
      server('proxy_pass http://app; proxy_set_header Connection close;'),
      // A statement more, even of a directive nobody reads.
      server('proxy_pass http://app; proxy_set_header Connection ""; expires 1h;'),
      server('uwsgi_pass http://app; proxy_set_header Connection "";'),
      server('proxy_pass http://app; proxy_set_header Connection "";').replace('location /', 'location /api/'),
    ];
    for (const text of changed) expect(await shapeOf(text), text).not.toBe(base);
  });

  it('counts an argument with a variable, one more argument, and everything in a block that is not directives', async () => {
    expect(await shapeOf(server('return 301 /a;'))).not.toBe(await shapeOf(server('return 301 $uri;')));
    expect(await shapeOf(server('return 301 /a;'))).not.toBe(await shapeOf(server('return 301 /a b;')));
    const map = (arm: string) => `http {\n    map $http_upgrade $connection_upgrade {\n        default upgrade;\n        '' ${arm};\n    }\n}\n`;
    expect(await shapeOf(map('close'))).not.toBe(await shapeOf(map("''")));
    const unknown = (value: string) => `server {\n    my_module_block {\n        setting ${value};\n    }\n}\n`;
    expect(await shapeOf(unknown('a'))).not.toBe(await shapeOf(unknown('b')));
  });
});

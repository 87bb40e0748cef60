import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../server/src/fixes/edits.js';
import { scopeOf } from '../../server/src/analysis/scopes.js';
import { ensureUpgradeMap, type UpgradeMap } from '../../server/src/fixes/connection-map.js';
import { NoFix, UNKNOWN_CONTEXT } from '../../server/src/fixes/placement.js';
import type { ResolvedOptions } from '../../server/src/util/types.js';
import { checkTree, directiveIn } from '../analysis/support.js';
import { nginxTest, wrapInclude } from '../support/nginx.js';

const options: ResolvedOptions = { nginxVersion: undefined, keepaliveConnections: 16 };

/** ensureUpgradeMap for the first `proxy_set_header` of `file` (or of the first file). */
async function ensureFor(files: Record<string, string>, file = Object.keys(files)[0]!, documents?: string[]) {
  const checked = await checkTree(files, documents);
  const header = directiveIn(checked.workspace, file, 'proxy_set_header');
  const scope = scopeOf(checked.workspace, header)[0]!;
  const outcome = ensureUpgradeMap(checked.workspace, { file: header.file, scope }, options);
  // A getter: only the tests reading `result` expect a map; the one reading `outcome` expects it withheld.
  return {
    ...checked,
    outcome,
    get result() {
      return mapOrFail(outcome);
    },
  };
}

/** The map, or undefined; a withheld map fails the test that did not expect it. */
function mapOrFail(outcome: UpgradeMap | NoFix | undefined): UpgradeMap | undefined {
  if (outcome instanceof NoFix) throw new Error(`map withheld: ${outcome.why}`);
  return outcome;
}

/** The text of `file` after the result's edits (all must name that file). */
function fixed(root: string, files: Record<string, string>, file: string, result: UpgradeMap | undefined): string {
  const full = path.join(root, file);
  const edits = result?.edits ?? [];
  expect(edits.every((edit) => edit.file === full)).toBe(true);
  return applyEdits(files[file]!, edits);
}

const LOCATION = `    location / {
        proxy_pass http://app;
        proxy_set_header Connection $http_connection;
    }`;

describe('ensureUpgradeMap: inserting the map', () => {
  it("goes into http {} before its first server, as `default upgrade; '' '';`", async () => {
    const files = {
      'nginx.conf': `events {}\nhttp {\n    sendfile on;\n\n    upstream app {\n        server 127.0.0.1:5000;\n    }\n    server {\n${LOCATION}\n    }\n}\n`,
    };
    const { root, result } = await ensureFor(files);
    expect(result?.variable).toBe('$connection_upgrade');
    expect(fixed(root, files, 'nginx.conf', result)).toBe(
      `events {}\nhttp {\n    sendfile on;\n\n    map $http_upgrade $connection_upgrade {\n        default upgrade;\n        '' '';\n    }\n\n    upstream app {\n        server 127.0.0.1:5000;\n    }\n    server {\n${LOCATION}\n    }\n}\n`,
    );
  });

  it('goes at the end of an http block with no server, upstream or include of its own', async () => {
    const files = { 'nginx.conf': 'events {}\nhttp {\n  sendfile on;\n}\n' };
    const checked = await checkTree(files);
    const http = checked.workspace.files[0]!.directives[1]!;
    const scope = scopeOf(checked.workspace, http.children[0]!)[0]!;
    const result = mapOrFail(ensureUpgradeMap(checked.workspace, { file: http.file, scope }, options));
    expect(fixed(checked.root, files, 'nginx.conf', result)).toBe(
      "events {}\nhttp {\n  sendfile on;\n  map $http_upgrade $connection_upgrade {\n    default upgrade;\n    '' '';\n  }\n}\n",
    );
  });

  it('goes into the main file before the include that brings the site in', async () => {
    const files = {
      'nginx.conf': 'events {}\nhttp {\n  include sites/*.conf;\n}\n',
      'sites/app.conf': `upstream app { server 127.0.0.1:5000; }\nserver {\n${LOCATION}\n}\n`,
    };
    const { root, result } = await ensureFor(files, 'sites/app.conf');
    expect(fixed(root, files, 'nginx.conf', result)).toBe(
      "events {}\nhttp {\n  map $http_upgrade $connection_upgrade {\n    default upgrade;\n    '' '';\n  }\n\n  include sites/*.conf;\n}\n",
    );
  });

  it("a site file (http at its top level) gets it before its first upstream, in the file's double quotes", async () => {
    const files = {
      'app.conf': `upstream app {\n\tserver 127.0.0.1:5000;\n}\nserver {\n\tlocation / {\n\t\tproxy_pass http://app;\n\t\tproxy_set_header Connection "$http_connection";\n\t}\n}\n`,
    };
    const { root, result } = await ensureFor(files);
    expect(fixed(root, files, 'app.conf', result)).toBe(
      `map $http_upgrade $connection_upgrade {\n\tdefault upgrade;\n\t"" "";\n}\n\n${files['app.conf']}`,
    );
  });

  it('keeps CRLF line ends', async () => {
    const files = { 'app.conf': 'server {\r\n  location / {\r\n    proxy_set_header Connection $http_connection;\r\n  }\r\n}\r\n' };
    const { root, result } = await ensureFor(files);
    expect(fixed(root, files, 'app.conf', result)).toBe(
      `map $http_upgrade $connection_upgrade {\r\n  default upgrade;\r\n  '' '';\r\n}\r\n\r\n${files['app.conf']}`,
    );
  });

  it('a Dokku sigil gets it at the top level, before the {{ range }} that renders its servers', async () => {
    const sigil = [
      '# Trimmed from dokku/dokku (MIT)',
      '{{ range $port_map := .PROXY_PORT_MAP | split " " }}',
      'server {',
      '  location    / {',
      '    proxy_pass  http://{{ $.APP }}-5000;',
      '    proxy_set_header Upgrade $http_upgrade;',
      '    proxy_set_header Connection $http_connection;',
      '  }',
      '}',
      '{{ end }}',
      'upstream {{ $.APP }}-5000 {',
      '  server 127.0.0.1:5000;',
      '}',
      '',
    ].join('\n');
    const files = { 'nginx.conf.sigil': sigil };
    const { root, result } = await ensureFor(files);
    const lines = sigil.split('\n');
    expect(result?.variable).toBe('$connection_upgrade');
    expect(fixed(root, files, 'nginx.conf.sigil', result)).toBe(
      [lines[0], 'map $http_upgrade $connection_upgrade {', '  default upgrade;', "  '' '';", '}', '', ...lines.slice(1)].join('\n'),
    );
  });

  it('names the variable $connection_upgrade_keepalive when $connection_upgrade means something else', async () => {
    const files = {
      'app.conf': `map $http_upgrade $connection_upgrade {\n    default keep-alive;\n    websocket upgrade;\n}\nserver {\n${LOCATION}\n}\n`,
    };
    const { root, result } = await ensureFor(files);
    expect(result?.variable).toBe('$connection_upgrade_keepalive');
    expect(fixed(root, files, 'app.conf', result)).toContain(
      "}\nmap $http_upgrade $connection_upgrade_keepalive {\n    default upgrade;\n    '' '';\n}\n\nserver {",
    );
  });

  it('is undefined outside http: a location snippet has nowhere to put a map', async () => {
    const files = { 'snippet.conf': '# nginx-keepalive: context=location\nproxy_set_header Connection $http_connection;\n' };
    const { result } = await ensureFor(files);
    expect(result).toBeUndefined();
  });

  it("is withheld, saying why, at the top of a snippet whose context is unknown (it may be a location's)", async () => {
    const { outcome } = await ensureFor({ 'proxy.conf': 'proxy_set_header Connection $http_connection;\n' });
    expect(outcome).toBeInstanceOf(NoFix);
    expect((outcome as NoFix).why).toBe(UNKNOWN_CONTEXT);
  });

  it('goes to the top of the same snippet once its context is stated as http', async () => {
    const files = { 'proxy.conf': '# nginx-keepalive: context=http\nproxy_set_header Connection $http_connection;\n' };
    const { root, result } = await ensureFor(files);
    expect(fixed(root, files, 'proxy.conf', result)).toContain("\n\nmap $http_upgrade $connection_upgrade {\n    default upgrade;");
  });
});

describe('ensureUpgradeMap: reusing a map', () => {
  it.each([
    ['single quotes', "map $http_upgrade $conn {\n  default upgrade;\n  '' '';\n}"],
    ['double quotes, other order, a websocket arm', 'map $http_upgrade $conn {\n  "" "";\n  websocket upgrade;\n  default Upgrade;\n}'],
    ['volatile and upper-case source', "map $HTTP_UPGRADE $conn {\n  volatile;\n  default upgrade;\n  '' \"\";\n}"],
  ])('an equivalent map (%s): its variable, no edits', async (_name, map) => {
    const { result } = await ensureFor({ 'app.conf': `${map}\nserver {\n${LOCATION}\n}\n` });
    expect(result).toEqual({ variable: '$conn', edits: [] });
  });

  it('a map in an included file', async () => {
    const files = {
      'nginx.conf': 'events {}\nhttp {\n  include maps.conf;\n  include site.conf;\n}\n',
      'maps.conf': "map $http_upgrade $connection_upgrade { default upgrade; '' ''; }\n",
      'site.conf': `server {\n${LOCATION}\n}\n`,
    };
    const { result } = await ensureFor(files, 'site.conf');
    expect(result).toEqual({ variable: '$connection_upgrade', edits: [] });
  });

  it("the docs' `'' close` map: its variable, with the `''` arm corrected in the file's quotes", async () => {
    const files = { 'app.conf': `map $http_upgrade $connection_upgrade {\n  default upgrade;\n  "" close;\n}\nserver {\n${LOCATION}\n}\n` };
    const { root, result } = await ensureFor(files);
    expect(result?.variable).toBe('$connection_upgrade');
    expect(fixed(root, files, 'app.conf', result)).toBe(files['app.conf'].replace('"" close;', '"" "";'));
  });

  it('not a map a later definition of the same variable overrides', async () => {
    const files = {
      'app.conf': `map $http_upgrade $c { default upgrade; '' ''; }\nmap $http_upgrade $c { default upgrade; }\nserver {\n${LOCATION}\n}\n`,
    };
    const { result } = await ensureFor(files);
    expect(result?.variable).toBe('$connection_upgrade');
    expect(result?.edits).toHaveLength(1);
  });

  it('not a map under a template guard, which may not be rendered', async () => {
    const sigil = "{{ if $.WS }}\nmap $http_upgrade $connection_upgrade { default upgrade; '' ''; }\n{{ end }}\n" + `server {\n${LOCATION}\n}\n`;
    const { result } = await ensureFor({ 'nginx.conf.sigil': sigil });
    expect(result?.variable).toBe('$connection_upgrade_keepalive');
  });

  it.each([
    ['another source', "map $http_connection $c { default upgrade; '' ''; }"],
    ['no empty arm', 'map $http_upgrade $c { default upgrade; }'],
    ['another value', "map $http_upgrade $c { default upgrade; '' keep-alive; }"],
    ['an include in the table', "map $http_upgrade $c { default upgrade; '' ''; include more.map; }"],
  ])('not a map with %s', async (_name, map) => {
    const { result } = await ensureFor({ 'app.conf': `${map}\nserver {\n${LOCATION}\n}\n` });
    expect(result?.variable).toBe('$connection_upgrade');
    expect(result?.edits).toHaveLength(1);
  });
});

describe('ensureUpgradeMap: results', () => {
  it('is idempotent: after its edits, the map is found and nothing more is inserted', async () => {
    const files = { 'app.conf': `upstream app { server 127.0.0.1:5000; }\nserver {\n${LOCATION}\n}\n` };
    const first = await ensureFor(files);
    const text = fixed(first.root, files, 'app.conf', first.result);
    const second = await ensureFor({ 'app.conf': text });
    expect(second.result).toEqual({ variable: '$connection_upgrade', edits: [] });
  });

  it('real nginx accepts the inserted map, used by the location, also defined twice (two Dokku apps)', async () => {
    const files = { 'app.conf': `upstream app { server 127.0.0.1:5000; }\nserver {\n    listen 127.0.0.1:1;\n${LOCATION}\n}\n` };
    const { root, result } = await ensureFor(files);
    const site = fixed(root, files, 'app.conf', result).replace('$http_connection', result!.variable);
    const second = site.replace('upstream app', 'upstream app2').replace('http://app;', 'http://app2;').replace('127.0.0.1:1', '127.0.0.1:2');
    const outcome = nginxTest((prefix) => {
      writeFileSync(path.join(prefix.dir, 'a.conf'), site);
      writeFileSync(path.join(prefix.dir, 'b.conf'), second);
      return wrapInclude(path.join(prefix.dir, '[ab].conf'), 'http', prefix);
    });
    expect(outcome.ok, outcome.output).toBe(true);
  });
});

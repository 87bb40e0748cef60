// Random directory layouts on the real disk, for the properties that the checker confines itself to the tree it is
// given and survives what a hostile repository can commit: symbolic-link loops, links out of the tree (to a directory
// holding a marked secret), the Debian sites-available/sites-enabled links, FIFOs, links to /dev/zero and /dev/null,
// dangling links, include globs that walk all of these, and a settings file that tries to map outside.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';

/** Appears only in the files outside the checked tree: any output holding it read something it must not. */
export const SECRET = 'SECRET7f3a';

const SECRET_CONFIG = `# ${SECRET}\nupstream ${SECRET} { server 127.0.0.1:1; }\nserver { location /${SECRET} { proxy_pass http://127.0.0.1:2; } }\n`;

const SITE = 'server {\n  listen 80;\n  location / {\n    proxy_pass http://127.0.0.1:8081;\n  }\n}\n';

/** Include arguments that walk links, loops, specials and the outside. */
const INCLUDES = [
  'sites-enabled/*.conf',
  'sites-enabled/*',
  'conf.d/*.conf',
  'conf.d/*/none-*.conf',
  'conf.d/*/*.conf',
  '*/*/*/*/*/x.conf',
  '*/shadow',
  '*/secret.conf',
  'loop/loop/loop/*.conf',
  '../outside/secret.conf',
  'specials/*',
];

type Entry =
  | { kind: 'file'; at: string; text: string }
  | { kind: 'link'; at: string; to: string }
  | { kind: 'fifo'; at: string };

/** The pieces a layout is drawn from; `{outside}` in a link target is the absolute secret directory. */
const PIECES: Record<string, Entry[]> = {
  debianSites: [
    { kind: 'file', at: 'sites-available/app.conf', text: SITE },
    { kind: 'link', at: 'sites-enabled/app.conf', to: '../sites-available/app.conf' },
  ],
  absoluteSiteLink: [
    { kind: 'file', at: 'sites-available/abs.conf', text: SITE.replace('8081', '8082') },
    { kind: 'link', at: 'sites-enabled/abs.conf', to: '{root}/sites-available/abs.conf' },
  ],
  twoLinksToOneSite: [
    { kind: 'file', at: 'sites-available/twice.conf', text: SITE.replace('8081', '8083') },
    { kind: 'link', at: 'sites-enabled/twice.conf', to: '../sites-available/twice.conf' },
    { kind: 'link', at: 'conf.d/twice.conf', to: '../sites-available/twice.conf' },
  ],
  loops: [
    { kind: 'link', at: 'loop', to: '.' },
    { kind: 'link', at: 'd/l1', to: '..' },
    { kind: 'link', at: 'd/l2', to: '.' },
    { kind: 'link', at: 'conf.d/self', to: '../conf.d' },
  ],
  linksOut: [
    { kind: 'link', at: 'conf.d/evil', to: '{outside}' },
    { kind: 'link', at: 'etclink', to: '{outside}' },
    { kind: 'link', at: 'conf.d/secret.conf', to: '{outside}/secret.conf' },
    { kind: 'link', at: 'app.sigil', to: '{outside}/secret.conf' },
  ],
  specials: [
    { kind: 'fifo', at: 'specials/fifo.conf' },
    { kind: 'fifo', at: 'conf.d/fifo.conf' },
    { kind: 'link', at: 'specials/zero.tmpl', to: '/dev/zero' },
    { kind: 'link', at: 'specials/zero.conf', to: '/dev/zero' },
    { kind: 'link', at: 'specials/null.conf', to: '/dev/null' },
    { kind: 'link', at: 'specials/dangling.conf', to: 'missing.conf' },
  ],
  settingsMapOut: [{ kind: 'file', at: '.nginx-keepalive.json', text: '{"pathMap":{"/etc":"../outside","/srv":"{outside}"}}\n' }],
  templates: [{ kind: 'file', at: 'app/nginx.conf.sigil', text: `{{ range .APPS }}${SITE}{{ end }}` }],
};

export interface Layout {
  pieces: string[];
  includes: string[];
  /** The http block's own upstream, so pieces' findings have one to reuse. */
  withUpstream: boolean;
}

export const layout: fc.Arbitrary<Layout> = fc.record({
  pieces: fc.subarray(Object.keys(PIECES), { minLength: 1 }),
  includes: fc.subarray(INCLUDES),
  withUpstream: fc.boolean(),
});

export interface BuiltLayout {
  /** Holds `root/` (what is checked) and `outside/` (the secret); remove it when done. */
  base: string;
  root: string;
  outside: string;
  fifos: string[];
}

function place(root: string, outside: string, entry: Entry, fifos: string[]): void {
  const at = path.join(root, entry.at);
  mkdirSync(path.dirname(at), { recursive: true });
  if (entry.kind === 'file') writeFileSync(at, entry.text.replaceAll('{outside}', outside));
  else if (entry.kind === 'link') symlinkSync(entry.to.replaceAll('{outside}', outside).replaceAll('{root}', root), at);
  else {
    execFileSync('mkfifo', [at]);
    fifos.push(at);
  }
}

export function buildLayout(spec: Layout): BuiltLayout {
  const base = mkdtempSync(path.join(os.tmpdir(), 'nginx-keepalive-layout-'));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(outside, 'dir'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.conf'), SECRET_CONFIG);
  writeFileSync(path.join(outside, 'shadow'), `root:${SECRET}:0:0\n`);
  writeFileSync(path.join(outside, 'dir/x.conf'), SECRET_CONFIG);
  mkdirSync(root);
  const includes = spec.includes.map((include) => `  include ${include};\n`).join('');
  const upstream = spec.withUpstream ? '  upstream app { server 127.0.0.1:8081; }\n' : '';
  writeFileSync(path.join(root, 'nginx.conf'), `events {}\nhttp {\n${upstream}${includes}}\n`);
  const fifos: string[] = [];
  for (const piece of spec.pieces) for (const entry of PIECES[piece]!) place(root, outside, entry, fifos);
  return { base, root, outside, fifos };
}

export function removeLayout(built: BuiltLayout): void {
  rmSync(built.base, { recursive: true, force: true });
}

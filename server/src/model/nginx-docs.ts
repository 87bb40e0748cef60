// The documentation's view of a directive (nginx-docs.json, made by scripts/nginx-docs/generate.mjs from nginx.org's
// documentation source and third-party modules' READMEs): syntax lines, defaults, contexts, the version that added
// it, its first paragraph and the parameters it names. The directive table (directive-table.ts) stays the authority
// on what nginx accepts; this is what the reference says, for hover and argument completion.
//
//   directiveDocs(entry)   the documentation of a table entry, or undefined where none documents it
import { packedDocsText } from './nginx-docs-text.js';
import { moduleInfo, type DirectiveEntry } from './directive-table.js';

export interface DirectiveDocs {
  /** nginx.org's syntax lines, `keepalive connections [local];`. */
  syntax: string[];
  /** The documented defaults (`proxy_set_header` has two), as the argument text after the name. */
  default?: string[];
  /** The documented contexts, in the documentation's words (`if in location`). */
  context: string[];
  /** `<appeared-in>`: the release that added the directive. */
  since?: string;
  /** The first paragraph, Markdown. */
  text: string;
  /** Parameter words (`default_server`, `weight=`) and the release the text says added each ('' when it names none). */
  params?: Record<string, string>;
  /** A line written for this project where no documentation has the directive (scripts/nginx-docs/written.mjs). */
  written?: true;
  /** Earlier defaults the page does not state (scripts/nginx-docs/corrections.mjs): before `version` it was `was`. */
  defaultChanges?: { version: string; was: string[] }[];
}

type Directives = Record<string, DirectiveDocs>;

interface Reference {
  /** nginx.org's pages (`http/ngx_http_upstream_module`). */
  pages: Record<string, Directives>;
  /** The READMEs, by Debian package (`libnginx-mod-http-lua`). */
  packages: Record<string, Directives>;
  /** Lines written for this project, by module, where nothing documents the directive. */
  written: Record<string, Record<string, string>>;
}

let reference: Reference | undefined;

/**
 * Parsed on first use: the file holds the reference as one string so that loading the server costs nothing (and the
 * node language server reads it only then: nginx-docs-beside.ts).
 */
function loaded(): Reference {
  reference ??= JSON.parse(packedDocsText()) as Reference;
  return reference;
}

const NGINX_DOCS = 'https://nginx.org/en/docs/';

function own(record: Directives | undefined, name: string): DirectiveDocs | undefined {
  return record && Object.hasOwn(record, name) ? record[name] : undefined;
}

function written(entry: DirectiveEntry): DirectiveDocs | undefined {
  const lines = loaded().written[entry.module];
  return lines && Object.hasOwn(lines, entry.name) ? { syntax: [], context: [], text: lines[entry.name]!, written: true } : undefined;
}

/**
 * nginx.org documents a directive on its module's page; a few on another page (`error_log` of http core on the
 * core page), so the core pages and then the other pages of the same directory are looked through next.
 */
export function directiveDocs(entry: DirectiveEntry): DirectiveDocs | undefined {
  const info = moduleInfo(entry.module);
  if (!info) return undefined;
  const { pages, packages } = loaded();
  // `libnginx-mod-http-lua 0.10.23`: the README of the package read. A package nginx.org documents (njs's
  // libnginx-mod-http-js) falls through to its page there.
  if (info.package) {
    const found = own(packages[info.package.split(' ')[0]!], entry.name);
    if (found) return found;
  }
  if (!info.docs.startsWith(NGINX_DOCS)) return written(entry);
  const page = info.docs.slice(NGINX_DOCS.length).replace(/\.html$/, '');
  const direct = own(pages[page], entry.name);
  if (direct) return direct;
  const directory = page.includes('/') ? page.slice(0, page.indexOf('/') + 1) : '';
  const core = `${directory}ngx_${directory.replace('/', '_')}core_module`;
  for (const candidate of [core, 'ngx_core_module']) {
    const found = own(pages[candidate], entry.name);
    if (found) return found;
  }
  // gzip_vary is declared by http core's C but documented on the gzip page.
  for (const [name, directives] of Object.entries(pages)) {
    if (name.startsWith(directory) && !name.slice(directory.length).includes('/')) {
      const found = own(directives, entry.name);
      if (found) return found;
    }
  }
  return written(entry);
}

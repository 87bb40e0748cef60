// NGINX Plus's directives (nginx-plus-directives.json, made by scripts/directive-table/nginx-plus.mjs from nginx.org's
// documentation): names open-source nginx rejects but a commercial build has, so the `directive` rule can name them.
import list from './nginx-plus-directives.json' with { type: 'json' };

export interface PlusDirective {
  name: string;
  /** The module nginx.org documents it in (ngx_http_upstream_hc_module). */
  module: string;
  /** The contexts as the docs write them (http, server, location, upstream...). */
  contexts: string[];
}

const byName = new Map<string, PlusDirective>();
for (const entry of (list as { directives: PlusDirective[] }).directives) if (!byName.has(entry.name)) byName.set(entry.name, entry);

export function plusDirective(name: string): PlusDirective | undefined {
  return byName.get(name);
}

/** Its nginx.org page and anchor. */
export function plusDocsUrl(entry: PlusDirective): string {
  const protocol = /^ngx_(http|stream|mail)_/.exec(entry.module)?.[1];
  return `https://nginx.org/en/docs/${protocol ? `${protocol}/` : ''}${entry.module}.html#${entry.name}`;
}

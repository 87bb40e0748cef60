// Where nginx.org's page states only today's default, the defaults of earlier releases, from nginx's own record.
// Each correction names the documented default it expects, so a change of the page stops the generator for a review
// instead of being silently overridden.
//   keepalive: CHANGES of 1.29.7, "now the keepalive directive in the upstream block is enabled by default"; the
//     page says `32 local` and, in its text, "Since 1.29.7, by default the cache for connections is activated".
//   proxy_set_header: src/http/modules/ngx_http_proxy_module.c, ngx_http_proxy_headers[]: `Connection close`
//     through 1.29.6 (`$proxy_internal_connection` there, `close` in 1.22.1), `Connection ""` (not sent) from
//     release-1.29.7; CHANGES of 1.29.7, "the Connection proxy header is not sent by default anymore". The page
//     (2026-07) still lists `Connection close`.
export const CORRECTIONS = {
  'http/ngx_http_upstream_module': {
    keepalive: { documented: ['32 local'], defaultChanges: [{ version: '1.29.7', was: [] }] },
  },
  'http/ngx_http_proxy_module': {
    proxy_set_header: {
      documented: ['Host $proxy_host', 'Connection close'],
      default: ['Host $proxy_host'],
      defaultChanges: [{ version: '1.29.7', was: ['Host $proxy_host', 'Connection close'] }],
    },
  },
};

/** Applies CORRECTIONS to the pages read; throws when a page no longer documents what a correction expects. */
export function applyCorrections(pages) {
  for (const [page, directives] of Object.entries(CORRECTIONS)) {
    for (const [name, correction] of Object.entries(directives)) {
      const entry = pages[page]?.[name];
      if (JSON.stringify(entry?.default ?? []) !== JSON.stringify(correction.documented)) {
        throw new Error(`${page}#${name}: nginx.org now documents ${JSON.stringify(entry?.default)}; review scripts/nginx-docs/corrections.mjs`);
      }
      if (correction.default) entry.default = correction.default;
      entry.defaultChanges = correction.defaultChanges;
    }
  }
}

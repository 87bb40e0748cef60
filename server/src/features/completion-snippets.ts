// The keepalive snippets (a location proxying over HTTP/1.1, an upstream with keepalive, the upgrade map), offered
// by the language server beside the directive names, and only where nginx allows their outermost block: a static
// VS Code snippet file cannot know the cursor's context, so it offered `location-keepalive` at top level.
//
//   snippetCandidates(span, context, version)   the snippets whose block the table allows in `context`
import type { NginxVersion } from '../analysis/versions.js';
import { allDirectives, entryAtVersion, existsInVersion, type DirectiveContext } from '../model/directive-table.js';
import type { CompletionCandidate } from './completion.js';

export interface KeepaliveSnippet {
  prefix: string;
  description: string;
  /** The outermost block and the module whose entry says where it may stand (http's `upstream`, not stream's). */
  block: string;
  module: string;
  /** LSP snippet syntax, one line each, tab-indented. */
  body: readonly string[];
}

export const KEEPALIVE_SNIPPETS: readonly KeepaliveSnippet[] = [
  {
    prefix: 'upstream-keepalive',
    description: 'An upstream{} that keeps idle connections (nginx-keepalive)',
    block: 'upstream',
    module: 'ngx_http_upstream_module',
    body: ['upstream ${1:app} {', '\tserver ${2:127.0.0.1:3000};', '\tkeepalive ${3:16};', '}'],
  },
  {
    prefix: 'location-keepalive',
    description: 'A location proxying to an upstream over HTTP/1.1 with the Connection header cleared (nginx-keepalive)',
    block: 'location',
    module: 'ngx_http_core_module',
    body: [
      'location ${1:/} {',
      '\tproxy_http_version 1.1;',
      '\tproxy_set_header Connection "";',
      '\tproxy_set_header Host \\$host;',
      '\tproxy_pass http://${2:app};',
      '}',
    ],
  },
  {
    prefix: 'map-connection-upgrade',
    description: "The upgrade map that keeps ordinary requests' connections: '' maps to '' rather than close (nginx-keepalive)",
    block: 'map',
    module: 'ngx_http_map_module',
    body: ['map \\$http_upgrade \\$connection_upgrade {', '\tdefault upgrade;', "\t'' '';", '}'],
  },
];

/** The snippet with every placeholder at its default (`${1:app}` → app, `\$` → $): what a plain-text client gets. */
export function expandSnippet(snippet: KeepaliveSnippet): string {
  return snippet.body.map((line) => withDefaults(line).replaceAll('\\$', '$')).join('\n');
}

/** `${N:text}` → text, by one scan (a regular expression for it backtracks on a run of digits with no `:`). */
function withDefaults(line: string): string {
  let out = '';
  let from = 0;
  for (let open = line.indexOf('${'); open !== -1; open = line.indexOf('${', from)) {
    let digits = open + 2;
    while (digits < line.length && line[digits]! >= '0' && line[digits]! <= '9') digits++;
    const close = line.indexOf('}', digits);
    if (digits === open + 2 || line[digits] !== ':' || close === -1) {
      out += line.slice(from, open + 2);
      from = open + 2;
      continue;
    }
    out += line.slice(from, open) + line.slice(digits + 1, close);
    from = close + 1;
  }
  return out + line.slice(from);
}

function allowedIn(snippet: KeepaliveSnippet, context: DirectiveContext, version: NginxVersion): boolean {
  return allDirectives().some((written) => {
    if (written.name !== snippet.block || written.module !== snippet.module || !existsInVersion(written, version)) return false;
    return entryAtVersion(written, version).contexts.includes(context);
  });
}

export function snippetCandidates(span: CompletionCandidate['span'], context: DirectiveContext, version: NginxVersion): CompletionCandidate[] {
  return KEEPALIVE_SNIPPETS.filter((snippet) => allowedIn(snippet, context, version)).map((snippet) => ({
    label: snippet.prefix,
    kind: 'snippet' as const,
    detail: snippet.description,
    span,
    text: expandSnippet(snippet),
    snippet: snippet.body.join('\n'),
    // After the directives of nginx's own modules (rank 0-2): a snippet is a convenience, not the word typed.
    sortText: `3${snippet.prefix}`,
  }));
}

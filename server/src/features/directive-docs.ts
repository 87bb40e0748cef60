// Short explanations of the directives the rules are about, shown when hovering a directive's name, each linking
// the rule documentation (docs/rules/<id>.md) that says more. Data only: hover.ts picks the entry.
import type { Directive } from '../model/types.js';

export interface DirectiveDoc {
  /** Markdown, one or two sentences. */
  text: string;
  /** Rules whose documentation explains the directive's part in connection reuse. */
  ruleIds: string[];
}

const BALANCER: DirectiveDoc = {
  text:
    'Installs a load-balancing method. Before nginx 1.29.7 it must come **before** `keepalive` in the upstream block: ' +
    'written after it, it replaces keepalive and no connection is ever reused (`nginx -t` only warns).',
  ruleIds: ['keepalive-order'],
};

const DOCS: Readonly<Record<string, DirectiveDoc>> = {
  keepalive: {
    text:
      '`keepalive N [local];` keeps up to N idle connections to this upstream per worker process, so requests reuse ' +
      'them instead of opening new ones. Before nginx 1.29.7 there is none unless written; from 1.29.7 an upstream{} ' +
      'block gets `keepalive 32 local` by default (`local`, new in 1.29.7: a cached connection is reused only by the ' +
      'location that opened it), and `keepalive 0` turns it off. Before 1.29.7, put it after any balancer directive.',
    ruleIds: ['upstream-keepalive', 'keepalive-order'],
  },
  upstream: {
    text: 'A named group of servers that `proxy_pass` & co. can target. Only an upstream{} block can keep idle connections (`keepalive`).',
    ruleIds: ['upstream-keepalive'],
  },
  proxy_http_version: {
    text:
      'The HTTP version nginx speaks to the upstream. Before nginx 1.29.7 the default is 1.0, and an HTTP/1.0 upstream ' +
      'connection is closed after every response: set `proxy_http_version 1.1;` for keepalive. `2` (HTTP/2 to the ' +
      'upstream, nginx 1.29.4+) keeps connections too.',
    ruleIds: ['proxy-http-version'],
  },
  fastcgi_keep_conn: {
    text:
      '`fastcgi_keep_conn on;` asks the FastCGI server to keep the connection open; without it (the default is off) ' +
      'the server closes it after every response.',
    ruleIds: ['fastcgi-keep-conn'],
  },
  proxy_pass: {
    text:
      'Proxies to an address or an upstream{} group. Only a named upstream with `keepalive` reuses connections; it also ' +
      'needs `proxy_http_version 1.1` and a cleared Connection header here.',
    ruleIds: ['proxy-pass-no-upstream', 'proxy-http-version', 'connection-header-missing'],
  },
  fastcgi_pass: {
    text: 'Passes requests to a FastCGI server. Connections are reused with an upstream{} `keepalive` plus `fastcgi_keep_conn on`.',
    ruleIds: ['fastcgi-keep-conn'],
  },
  grpc_pass: {
    text: 'Passes requests to a gRPC server over HTTP/2; an upstream{} `keepalive` is all it needs to reuse connections.',
    ruleIds: ['upstream-keepalive'],
  },
  tunnel_pass: {
    text:
      'Tunnels HTTP CONNECT requests to a server (nginx 1.31.0+). A tunnel holds its upstream connection for its whole ' +
      'life and nginx never caches it, so keepalive cannot help. From 1.31.3 nginx also closes the client connection ' +
      'after any CONNECT request, refused ones included.',
    ruleIds: ['upstream-keepalive'],
  },
  uwsgi_pass: {
    text: 'Passes requests to a uwsgi server. The uwsgi protocol has no keepalive: each request uses its own connection.',
    ruleIds: ['upstream-keepalive'],
  },
  scgi_pass: {
    text: 'Passes requests to an SCGI server. SCGI has no keepalive: each request uses its own connection.',
    ruleIds: ['upstream-keepalive'],
  },
  map: {
    text:
      "Computes a variable from another. Used as the Connection header, the WebSocket recipe's `'' close` arm closes the " +
      "upstream connection for every ordinary request; `'' ''` sends none and keeps it.",
    ruleIds: ['connection-map-close'],
  },
  include: {
    text: 'Pulls other files in at this place. The checks follow includes inside the checked paths (and `--path-map` targets).',
    ruleIds: ['include'],
  },
  ip_hash: BALANCER,
  hash: BALANCER,
  least_conn: BALANCER,
  random: BALANCER,
  least_time: BALANCER,
  ntlm: BALANCER,
  sticky: BALANCER,
};

const CONNECTION_HEADER: DirectiveDoc = {
  text:
    'The Connection header sent upstream. It must not say `close`: clear it (`""`), or use an upgrade map whose `\'\'` ' +
    "arm is empty. `$http_connection` forwards the client's own header, `close` included. Before nginx 1.29.7 nginx " +
    'sends `Connection: close` when none is set.',
  ruleIds: ['connection-header-missing', 'connection-header-passthrough', 'connection-map-close'],
};

const PROXY_SET_HEADER: DirectiveDoc = {
  text:
    'Sets a header sent upstream. A level with any `proxy_set_header` inherits **none** from the levels above, ' +
    '`Connection ""` included.',
  ruleIds: ['proxy-set-header-inheritance', 'connection-header-missing'],
};

/** Blocks whose statements are table entries (`default upgrade;`, `text/html html;`), not directives. */
const TABLES: ReadonlySet<string> = new Set(['map', 'geo', 'split_clients', 'types', 'charset_map', 'match']);

/** The explanation for hovering `directive`'s name, if the rules have anything to say about it. */
export function directiveDoc(directive: Directive): DirectiveDoc | undefined {
  const parent = directive.parent?.name;
  if (parent !== undefined && TABLES.has(parent)) return undefined;
  if (DOCS[directive.name] === BALANCER && parent !== undefined && parent !== 'upstream') return undefined;
  if (directive.name === 'proxy_set_header') {
    return directive.args[0]?.value.toLowerCase() === 'connection' ? CONNECTION_HEADER : PROXY_SET_HEADER;
  }
  if (directive.name === 'upstream' && !directive.blockSpan) return undefined;
  return Object.hasOwn(DOCS, directive.name) ? DOCS[directive.name] : undefined;
}

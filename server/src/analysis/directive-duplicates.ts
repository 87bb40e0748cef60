// Which directives a block may not hold twice ('"x" directive is duplicate'), from the generated value syntax
// (model/value-syntax.ts): the slot handlers that check their field is still unset (flag, str, num, size, msec, enum,
// bufs, path...) and the custom handlers that answer "is duplicate" and keep no list. Handlers that add up (str_array,
// keyval, bitmask, and custom ones that append: add_header, proxy_set_header, error_page, access_log) may repeat, and
// so may those that refuse only some combinations while keeping a list (proxy_redirect: only `off` with others).
import type { DirectiveEntry } from '../model/directive-table.js';
import { allDirectives } from '../model/directive-table.js';
import { handlerSyntax } from '../model/value-syntax.js';

/** Whether nginx `version` (any release without one) refuses a second `entry` in one block. */
export function refusesSecond(entry: DirectiveEntry, version?: readonly number[]): boolean {
  return handlerSyntax(entry, version)?.repeat === 'once';
}

/**
 * A set built when first read: the language server's incremental checks read it, a CLI run never does, and building
 * it reads every directive's value syntax.
 */
class LazyNames implements ReadonlySet<string> {
  private built: Set<string> | undefined;

  constructor(private readonly build: () => Iterable<string>) {}

  private get names(): Set<string> {
    return (this.built ??= new Set(this.build()));
  }

  get size(): number {
    return this.names.size;
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    this.names.forEach((name) => callback.call(thisArg, name, name, this));
  }

  entries(): IterableIterator<[string, string]> {
    return this.names.entries();
  }

  keys(): IterableIterator<string> {
    return this.names.keys();
  }

  values(): IterableIterator<string> {
    return this.names.values();
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.names.values();
  }
}

/** Names some module refuses twice in one block (a block directive among them is checked with its siblings). */
export const DUPLICATE_REJECTED: ReadonlySet<string> = new LazyNames(() =>
  allDirectives().filter((entry) => refusesSecond(entry)).map((entry) => entry.name),
);

/**
 * A valid argument list for directives measured against real nginx (test/rules/directive-nginx.test.ts writes each
 * twice in one location and expects "is duplicate", and writes the repeatable ones twice and expects no error).
 */
export const DUPLICATE_SAMPLE_ARGUMENTS: Readonly<Record<string, string>> = {
  alias: '/x', auth_basic: 'x', autoindex: 'on', charset: 'utf-8', client_body_buffer_size: '1k',
  client_max_body_size: '1m', default_type: 'a/b', etag: 'off', expires: '1h', fastcgi_pass: '127.0.0.1:9000',
  grpc_pass: '127.0.0.1:1', gzip: 'on', internal: '', keepalive_timeout: '5', limit_rate: '1k', log_not_found: 'off',
  proxy_buffer_size: '4k', proxy_buffering: 'off', proxy_buffers: '4 4k', proxy_cache_key: 'a',
  proxy_connect_timeout: '5', proxy_http_version: '1.1', proxy_ignore_client_abort: 'on', proxy_intercept_errors: 'on',
  proxy_pass: 'http://127.0.0.1', proxy_read_timeout: '5', proxy_send_timeout: '5',
  proxy_ssl_server_name: 'on', resolver: '127.0.0.1', resolver_timeout: '5s', root: '/x', sendfile: 'on',
  server_name_in_redirect: 'off', server_tokens: 'off', tcp_nodelay: 'on', try_files: 'a b', uwsgi_pass: '127.0.0.1:1',
};

/** Directives nginx accepts twice in one location, with the arguments the measurement writes. */
export const REPEAT_SAMPLE_ARGUMENTS: Readonly<Record<string, string>> = {
  proxy_redirect: 'http://a/ /', add_header: 'X-A b', proxy_set_header: 'X-A b', error_page: '404 /404.html',
  access_log: 'off', index: 'a.html', gzip_types: 'text/css', proxy_next_upstream: 'error', proxy_cache_valid: '1m',
  proxy_hide_header: 'X-A', set: '$a b', proxy_ssl_protocols: 'TLSv1.2', proxy_cookie_path: '/a /b',
};

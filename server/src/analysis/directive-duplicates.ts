// Directives whose handler rejects a second occurrence in the same block ('"x" directive is duplicate'). The
// directive table does not record handlers, so this set is measured, not derived: each name was written twice in
// one location of Debian's nginx 1.22.1 and `nginx -t` answered "is duplicate" (test/rules/directive-nginx.test.ts
// repeats the measurement for every name here). Directives that add up (add_header, proxy_set_header, index,
// access_log, error_log, gzip_types, return, set, proxy_next_upstream, proxy_cache_valid, proxy_hide_header...) were
// measured too and are accepted twice, so they are not here. Only location-level names were measured: server-only
// ones (listen, server_name) have their own rules in nginx and are left out.
export const DUPLICATE_REJECTED: ReadonlySet<string> = new Set([
  'alias', 'auth_basic', 'autoindex', 'charset', 'client_body_buffer_size', 'client_max_body_size', 'default_type',
  'etag', 'expires', 'fastcgi_pass', 'grpc_pass', 'gzip', 'internal', 'keepalive_timeout', 'limit_rate',
  'log_not_found', 'proxy_buffer_size', 'proxy_buffering', 'proxy_buffers', 'proxy_cache_key', 'proxy_connect_timeout',
  'proxy_http_version', 'proxy_ignore_client_abort', 'proxy_intercept_errors', 'proxy_pass', 'proxy_read_timeout',
  'proxy_redirect', 'proxy_send_timeout', 'proxy_ssl_server_name', 'resolver', 'resolver_timeout', 'root',
  'sendfile', 'server_name_in_redirect', 'server_tokens', 'tcp_nodelay', 'try_files', 'uwsgi_pass',
]);

/** A valid argument list for each name above, as the measurement wrote it (the nginx test re-runs it). */
export const DUPLICATE_SAMPLE_ARGUMENTS: Readonly<Record<string, string>> = {
  alias: '/x', auth_basic: 'x', autoindex: 'on', charset: 'utf-8', client_body_buffer_size: '1k',
  client_max_body_size: '1m', default_type: 'a/b', etag: 'off', expires: '1h', fastcgi_pass: '127.0.0.1:9000',
  grpc_pass: '127.0.0.1:1', gzip: 'on', internal: '', keepalive_timeout: '5', limit_rate: '1k', log_not_found: 'off',
  proxy_buffer_size: '4k', proxy_buffering: 'off', proxy_buffers: '4 4k', proxy_cache_key: 'a',
  proxy_connect_timeout: '5', proxy_http_version: '1.1', proxy_ignore_client_abort: 'on', proxy_intercept_errors: 'on',
  proxy_pass: 'http://127.0.0.1', proxy_read_timeout: '5', proxy_redirect: 'off', proxy_send_timeout: '5',
  proxy_ssl_server_name: 'on', resolver: '127.0.0.1', resolver_timeout: '5s', root: '/x', sendfile: 'on',
  server_name_in_redirect: 'off', server_tokens: 'off', tcp_nodelay: 'on', try_files: 'a b', uwsgi_pass: '127.0.0.1:1',
};

// The nginx.org page that documents a module's directives. Most pages carry the module's own name; the exceptions
// below are modules whose directives nginx.org documents on another page (filter modules under their short name,
// the upstream balancers on the upstream page, the core/event modules on the core page).
const BASE = 'https://nginx.org/en/docs/';

const PAGE_OF = {
  ngx_core_module: 'ngx_core_module',
  ngx_errlog_module: 'ngx_core_module',
  ngx_conf_module: 'ngx_core_module',
  ngx_events_module: 'ngx_core_module',
  ngx_event_core_module: 'ngx_core_module',
  ngx_epoll_module: 'ngx_core_module',
  ngx_kqueue_module: 'ngx_core_module',
  ngx_devpoll_module: 'ngx_core_module',
  ngx_eventport_module: 'ngx_core_module',
  ngx_openssl_module: 'ngx_core_module',
  ngx_regex_module: 'ngx_core_module',
  ngx_thread_pool_module: 'ngx_core_module',
  ngx_google_perftools_module: 'ngx_google_perftools_module',
  ngx_http_module: 'http/ngx_http_core_module',
  ngx_http_copy_filter_module: 'http/ngx_http_core_module',
  ngx_http_gzip_filter_module: 'http/ngx_http_gzip_module',
  ngx_http_headers_filter_module: 'http/ngx_http_headers_module',
  ngx_http_userid_filter_module: 'http/ngx_http_userid_module',
  ngx_http_sub_filter_module: 'http/ngx_http_sub_module',
  ngx_http_addition_filter_module: 'http/ngx_http_addition_module',
  ngx_http_charset_filter_module: 'http/ngx_http_charset_module',
  ngx_http_ssi_filter_module: 'http/ngx_http_ssi_module',
  ngx_http_gunzip_filter_module: 'http/ngx_http_gunzip_module',
  ngx_http_xslt_filter_module: 'http/ngx_http_xslt_module',
  ngx_http_slice_filter_module: 'http/ngx_http_slice_module',
  ngx_http_upstream_keepalive_module: 'http/ngx_http_upstream_module',
  ngx_http_upstream_ip_hash_module: 'http/ngx_http_upstream_module',
  ngx_http_upstream_least_conn_module: 'http/ngx_http_upstream_module',
  ngx_http_upstream_hash_module: 'http/ngx_http_upstream_module',
  ngx_http_upstream_random_module: 'http/ngx_http_upstream_module',
  ngx_http_upstream_zone_module: 'http/ngx_http_upstream_module',
  ngx_http_v3_module: 'http/ngx_http_v3_module',
  ngx_stream_module: 'stream/ngx_stream_core_module',
  ngx_stream_upstream_hash_module: 'stream/ngx_stream_upstream_module',
  ngx_stream_upstream_least_conn_module: 'stream/ngx_stream_upstream_module',
  ngx_stream_upstream_random_module: 'stream/ngx_stream_upstream_module',
  ngx_stream_upstream_zone_module: 'stream/ngx_stream_upstream_module',
  ngx_mail_module: 'mail/ngx_mail_core_module',
};

/** The docs page of an nginx module (without an anchor); entries link `<page>#<directive>`. */
export function nginxDocsPage(module) {
  const page = PAGE_OF[module];
  if (page) return `${BASE}${page}.html`;
  for (const protocol of ['http', 'stream', 'mail']) {
    if (module.startsWith(`ngx_${protocol}_`)) return `${BASE}${protocol}/${module}.html`;
  }
  return `${BASE}${module}.html`;
}

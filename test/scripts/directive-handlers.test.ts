// The set-handler reader of scripts/directive-table (handlers.mjs, value-syntax.mjs) on a small made-up module
// written the way nginx's are: slot handlers, a custom handler that refuses a second use, one that keeps a list and
// refuses only some mixes, one that adds up, a parameter parser (listen-like) with an #if-guarded word, and the
// release walk's `since` and `changes`.
import { describe, expect, it } from 'vitest';
import { PARAMETER_HANDLERS, readHandlers } from '../../scripts/directive-table/handlers.mjs';
import { buildFacts } from '../../scripts/directive-table/sources.mjs';
import { walk } from '../../scripts/directive-table/value-syntax.mjs';

const MODULE = `
static ngx_command_t  ngx_http_core_commands[] = {
    { ngx_string("demo_size"), NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1, ngx_conf_set_size_slot, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL },
    { ngx_string("demo_list"), NGX_HTTP_LOC_CONF|NGX_CONF_1MORE, ngx_conf_set_str_array_slot, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL },
    { ngx_string("demo_once"), NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1, ngx_http_demo_once, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL },
    { ngx_string("demo_mostly"), NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1, ngx_http_demo_mostly, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL },
    { ngx_string("demo_adds"), NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1, ngx_http_demo_adds, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL },
    { ngx_string("listen"), NGX_HTTP_SRV_CONF|NGX_CONF_1MORE, ngx_http_core_listen, NGX_HTTP_SRV_CONF_OFFSET, 0, NULL },
      ngx_null_command
};

ngx_module_t  ngx_http_core_module = { NGX_MODULE_V1, &ctx, ngx_http_core_commands, NGX_HTTP_MODULE, NULL };

static char *
ngx_http_demo_once(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    if (dcf->x) {
        return "is duplicate";
    }
    return NGX_CONF_OK;
}

static char *
ngx_http_demo_mostly(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    if (dcf->off) {
        return "is duplicate";
    }
    p = ngx_array_push(dcf->list);
    return NGX_CONF_OK;
}

static char *
ngx_http_demo_adds(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    p = ngx_array_push(dcf->list);
    return NGX_CONF_OK;
}

static char *
ngx_http_core_listen(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    /* if (ngx_strcmp(value[n].data, "commented") == 0) */
    for (n = 2; n < cf->args->nelts; n++) {
        if (ngx_strcmp(value[n].data, "default_server") == 0) { continue; }
        if (ngx_strncmp(value[n].data, "backlog=", 8) == 0) { continue; }
#if 0
        if (ngx_strcmp(value[n].data, "never") == 0) { continue; }
#endif
        if (ngx_strcmp(value[n].data, "ssl") == 0) { continue; }
        goto invalid;
    }
    return NGX_CONF_OK;
}
`;

describe('readHandlers', () => {
  const { directives, parameters } = readHandlers({ 'src/http/demo.c': MODULE }, buildFacts('1.22.1'));

  it('reads the value kind of slot handlers and "may repeat" of every handler', () => {
    expect(directives['ngx_http_core_module demo_size']).toEqual({ value: 'size', repeat: 'once' });
    expect(directives['ngx_http_core_module demo_list']).toEqual({ value: 'string', repeat: 'yes' });
    expect(directives['ngx_http_core_module demo_once']).toEqual({ value: 'custom', repeat: 'once' });
    expect(directives['ngx_http_core_module demo_mostly']).toEqual({ value: 'custom', repeat: 'mostly' });
    expect(directives['ngx_http_core_module demo_adds']).toEqual({ value: 'custom', repeat: 'yes' });
  });

  it('reads the words a parameter parser compares with, not those commented out or compiled out', () => {
    expect(PARAMETER_HANDLERS).toContain('ngx_http_core_listen');
    expect(parameters['ngx_http_core_module listen']).toEqual({ words: ['default_server', 'ssl'], prefixes: ['backlog='] });
  });
});

describe('walk', () => {
  it('records the release that added an entry and what a changed field was before', () => {
    const walked = walk([
      { version: '1.22.1', map: { a: { value: 'size', repeat: 'once' } } },
      { version: '1.27.0', map: { a: { value: 'size-or-variables', repeat: 'once' }, b: { value: 'flag', repeat: 'once' } } },
    ]);
    expect(walked).toEqual({
      a: { value: 'size-or-variables', repeat: 'once', changes: [{ version: '1.27.0', was: { value: 'size' } }] },
      b: { value: 'flag', repeat: 'once', since: '1.27.0' },
    });
  });
});

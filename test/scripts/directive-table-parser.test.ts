// The C-table reader of scripts/directive-table on small made-up sources written the way nginx's are, including the
// awkward cases: commented-out entries, #if-guarded entries (kept when Debian's build has the option, marked with
// the condition), #else alternatives, #if 0, conditions the build facts cannot decide, enum/bitmask posts, defaults
// matched from merge functions, variables tables with prefix variables, and blocks whose body a module reads itself.
import { describe, expect, it } from 'vitest';
import { buildFacts } from '../../scripts/directive-table/sources.mjs';
import { argumentRule, readTree } from '../../scripts/directive-table/snapshot.mjs';

const HEADERS = `
#define NGX_CONF_NOARGS      0x00000001
#define NGX_CONF_TAKE1       0x00000002
#define NGX_CONF_TAKE2       0x00000004
#define NGX_CONF_TAKE12      (NGX_CONF_TAKE1|NGX_CONF_TAKE2)
#define NGX_CONF_BLOCK       0x00000100
#define NGX_CONF_FLAG        0x00000200
#define NGX_CONF_1MORE       0x00000800
#define NGX_HTTP_MAIN_CONF        0x02000000
#define NGX_HTTP_SRV_CONF         0x04000000
#define NGX_HTTP_LOC_CONF         0x08000000
#define NGX_HTTP_LIF_CONF         0x40000000
#define NGX_STREAM_MAIN_CONF    0x02000000
#define NGX_STREAM_SRV_CONF     0x04000000
#define NGX_HTTP_MODULE           0x50545448
#define NGX_STREAM_MODULE       0x4d525453
`;

const MODULE = `
static ngx_conf_enum_t  ngx_http_demo_mode[] = {
    { ngx_string("fast"), NGX_HTTP_DEMO_FAST },
    { ngx_string("safe"), NGX_HTTP_DEMO_SAFE },
    { ngx_null_string, 0 }
};

static ngx_conf_bitmask_t  ngx_http_demo_masks[] = {
    { ngx_string("error"), NGX_HTTP_DEMO_FT_ERROR },
    { ngx_string("timeout"), NGX_HTTP_DEMO_FT_TIMEOUT },
    { ngx_null_string, 0 }
};

static ngx_command_t  ngx_http_demo_commands[] = {

    { ngx_string("demo_flag"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_HTTP_LIF_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_demo_loc_conf_t, flag),
      NULL },

/*
    { ngx_string("demo_commented_out"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      NULL, 0, 0, NULL },
*/

    // { ngx_string("demo_line_comment"), NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1, NULL, 0, 0, NULL },

#if (NGX_HTTP_SSL)
    { ngx_string("demo_ssl"),
      NGX_HTTP_SRV_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_str_slot,
      NGX_HTTP_SRV_CONF_OFFSET,
      offsetof(ngx_http_demo_srv_conf_t, ssl),
      NULL },
#else
    { ngx_string("demo_no_ssl"),
      NGX_HTTP_SRV_CONF|NGX_CONF_TAKE1,
      NULL, 0, 0, NULL },
#endif

#if 0
    { ngx_string("demo_disabled"), NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1, NULL, 0, 0, NULL },
#endif

#if (NGX_HAVE_SOMETHING_UNKNOWN)
    { ngx_string("demo_platform"), NGX_HTTP_LOC_CONF|NGX_CONF_TAKE12, NULL, 0, 0, NULL },
#endif

    { ngx_string("demo_mode"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_enum_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_demo_loc_conf_t, mode),
      &ngx_http_demo_mode },

    { ngx_string("demo_next"),
      NGX_HTTP_LOC_CONF|NGX_CONF_1MORE,
      ngx_conf_set_bitmask_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_demo_loc_conf_t, next),
      &ngx_http_demo_masks },

    { ngx_string("demo_timeout"),
      NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_msec_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_demo_loc_conf_t, timeout),
      NULL },

    { ngx_string("demo_table"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_BLOCK|NGX_CONF_TAKE1,
      ngx_http_demo_table,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

      ngx_null_command
};

ngx_module_t  ngx_http_demo_module = {
    NGX_MODULE_V1,
    &ngx_http_demo_module_ctx,             /* module context */
    ngx_http_demo_commands,                /* module directives */
    NGX_HTTP_MODULE,                       /* module type */
    NULL,
    NGX_MODULE_V1_PADDING
};

static ngx_http_variable_t  ngx_http_demo_vars[] = {
    { ngx_string("demo_status"), NULL, ngx_http_demo_status, 0, NGX_HTTP_VAR_NOCACHEABLE, 0 },
    { ngx_string("demo_header_"), NULL, ngx_http_demo_header, 0, NGX_HTTP_VAR_PREFIX, 0 },
      ngx_http_null_variable
};

static char *
ngx_http_demo_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child)
{
    ngx_http_demo_loc_conf_t *prev = parent;
    ngx_http_demo_loc_conf_t *conf = child;

    ngx_conf_merge_value(conf->flag, prev->flag, 1);
    ngx_conf_merge_uint_value(conf->mode, prev->mode, NGX_HTTP_DEMO_SAFE);
    ngx_conf_merge_bitmask_value(conf->next, prev->next,
                              (NGX_CONF_BITMASK_SET|NGX_HTTP_DEMO_FT_ERROR
                               |NGX_HTTP_DEMO_FT_TIMEOUT));
    ngx_conf_merge_msec_value(conf->timeout, prev->timeout, 60000);

    return NGX_CONF_OK;
}

static char *
ngx_http_demo_table(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    cf->handler = ngx_http_demo_line;
    return ngx_conf_parse(cf, NULL);
}
`;

const STREAM_MODULE = `
static ngx_command_t  ngx_stream_demo_commands[] = {
    { ngx_string("demo_flag"),
      NGX_STREAM_MAIN_CONF|NGX_STREAM_SRV_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot, NGX_STREAM_SRV_CONF_OFFSET, 0, NULL },
      ngx_null_command
};

ngx_module_t  ngx_stream_demo_module = {
    NGX_MODULE_V1, &ngx_stream_demo_module_ctx, ngx_stream_demo_commands, NGX_STREAM_MODULE, NGX_MODULE_V1_PADDING
};
`;

function read() {
  return readTree(
    { 'src/core/headers.h': HEADERS, 'src/http/ngx_http_demo_module.c': MODULE, 'src/stream/ngx_stream_demo_module.c': STREAM_MODULE },
    buildFacts('1.22.1'),
  );
}

describe('reading ngx_command_t tables', () => {
  const tree = read();
  const entry = (name: string, module = 'ngx_http_demo_module') => tree.directives.find((d) => d.name === name && d.module === module);

  it('reads contexts per module type: the same bits mean http in an http module and stream in a stream module', () => {
    expect(entry('demo_flag')?.contexts).toEqual(['http', 'server', 'location', 'if-in-location']);
    expect(entry('demo_flag', 'ngx_stream_demo_module')?.contexts).toEqual(['stream', 'stream-server']);
  });

  it('leaves out commented-out entries and #if 0, and takes the #if branch Debian builds', () => {
    const names = tree.directives.map((d) => d.name);
    expect(names).not.toContain('demo_commented_out');
    expect(names).not.toContain('demo_line_comment');
    expect(names).not.toContain('demo_disabled');
    expect(names).not.toContain('demo_no_ssl');
    expect(entry('demo_ssl')?.when).toBe('(NGX_HTTP_SSL)');
  });

  it('keeps entries under a condition the build facts cannot decide, marked with it', () => {
    expect(entry('demo_platform')).toMatchObject({ args: '1|2', when: '(NGX_HAVE_SOMETHING_UNKNOWN)' });
  });

  it('reads flag, enum and bitmask values and their defaults from the merge function', () => {
    expect(entry('demo_flag')).toMatchObject({ args: 'flag', values: ['on', 'off'], default: 'on' });
    expect(entry('demo_mode')).toMatchObject({ values: ['fast', 'safe'], default: 'safe' });
    expect(entry('demo_next')).toMatchObject({ args: '1+', values: ['error', 'timeout'], multiple: true, default: 'error timeout' });
    expect(entry('demo_timeout')?.default).toBe('60s');
  });

  it('marks a block whose handler installs its own line parser', () => {
    expect(entry('demo_table')).toMatchObject({ block: true, body: 'custom', args: '1', contexts: ['http'] });
  });

  it('reads variables, with prefix variables marked', () => {
    expect(tree.variables).toEqual([
      { name: 'demo_status', module: 'ngx_http_demo_module', protocol: 'http' },
      { name: 'demo_header_', module: 'ngx_http_demo_module', protocol: 'http', prefix: true },
    ]);
  });

  it('reads argument rules as ngx_conf_handler applies them', () => {
    expect(argumentRule(0x1)).toBe('0');
    expect(argumentRule(0x2 | 0x4 | 0x8)).toBe('1|2|3');
    expect(argumentRule(0x400 | 0x2)).toBe('any');
    expect(argumentRule(0x1000)).toBe('2+');
  });

  it('fails with the file and line when a type cannot be read, instead of guessing', () => {
    const broken = MODULE.replace('NGX_HTTP_LOC_CONF|NGX_CONF_1MORE', 'NGX_HTTP_LOC_CONF|NGX_CONF_MYSTERY');
    expect(() => readTree({ 'h.h': HEADERS, 'src/http/demo.c': broken }, buildFacts('1.22.1'))).toThrow(/demo\.c:\d+: cannot read the type of "demo_next"/);
  });
});

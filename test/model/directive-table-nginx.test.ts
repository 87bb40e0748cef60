// The generated directive table against real nginx (Debian's 1.22.1 with its stream, mail and lua modules): for a
// sample of directives across modules, a config using each in a context the table allows, in one it does not, with
// an argument count the table rejects, and (for flags and enums) a word the table does not list, gets exactly the
// `nginx -t` verdict the table predicts. The predictions come from the accessor, never from this file.
import { describe, expect, it } from 'vitest';
import {
  argumentCountValid,
  directiveEntries,
  directiveIn,
  existsInVersion,
  valueAccepted,
  type DirectiveContext,
  type DirectiveEntry,
} from '../../server/src/model/directive-table.js';
import { nginxTest } from '../support/nginx.js';
import { BUILDABLE, configWith } from './directive-configs.js';

const DEBIAN_NGINX = [1, 22, 1] as const;

/** module -> directive -> arguments nginx accepts (a block directive's text ends with its `{ ... }` body). */
const SAMPLE: Record<string, Record<string, string>> = {
  ngx_core_module: { worker_processes: '1', worker_rlimit_nofile: '1024' },
  ngx_regex_module: { pcre_jit: 'on' },
  ngx_event_core_module: { worker_connections: '64', multi_accept: 'on' },
  ngx_http_core_module: {
    sendfile: 'on', client_max_body_size: '10m', keepalive_timeout: '65', server_tokens: 'off', root: '/tmp',
    default_type: 'text/plain', internal: '', server_name: 'example.com',
    underscores_in_headers: 'on', satisfy: 'any', tcp_nodelay: 'off', location: '/a { }', types: '{ text/html html; }',
  },
  ngx_http_proxy_module: {
    proxy_pass: 'http://backend', proxy_http_version: '1.1', proxy_set_header: 'Host $host', proxy_buffering: 'off',
    proxy_connect_timeout: '5s', proxy_next_upstream: 'error timeout', proxy_redirect: 'off',
  },
  ngx_http_try_files_module: { try_files: '$uri =404' },
  ngx_http_upstream_keepalive_module: { keepalive: '16', keepalive_timeout: '60s' },
  ngx_http_upstream_least_conn_module: { least_conn: '' },
  ngx_http_upstream_hash_module: { hash: '$request_uri consistent' },
  ngx_http_upstream_module: { upstream: 'more { server 127.0.0.1:1; }' },
  ngx_http_rewrite_module: { rewrite: '^/a /b last', return: '204', set: '$x 1', break: '' },
  ngx_http_log_module: { access_log: 'off', log_format: "short '$remote_addr'" },
  ngx_http_map_module: { map: '$uri $mapped { default 0; }' },
  ngx_http_gzip_filter_module: { gzip: 'on', gzip_types: 'text/css' },
  ngx_http_fastcgi_module: { fastcgi_keep_conn: 'on', fastcgi_param: 'SCRIPT_FILENAME $document_root' },
  ngx_http_ssl_module: { ssl_protocols: 'TLSv1.2 TLSv1.3', ssl_session_timeout: '10m' },
  ngx_stream_core_module: { preread_timeout: '10s', tcp_nodelay: 'on' },
  ngx_stream_proxy_module: { proxy_pass: '127.0.0.1:1', proxy_timeout: '10s', proxy_connect_timeout: '5s' },
  ngx_stream_upstream_hash_module: { hash: '$remote_addr' },
  ngx_stream_return_module: { return: 'ok' },
  ngx_mail_core_module: { timeout: '30s', server_name: 'mail.example.com' },
  ngx_mail_smtp_module: { smtp_auth: 'login plain' },
  ngx_mail_auth_http_module: { auth_http_timeout: '5s' },
  ngx_mail_proxy_module: { proxy_pass_error_message: 'on' },
  ngx_http_lua_module: {
    lua_code_cache: 'on', lua_shared_dict: 'cache 1m', content_by_lua: "'ngx.say(1)'", set_by_lua: "$lua_x 'return 1'",
    lua_package_path: "'/tmp/?.lua;;'", content_by_lua_block: '{ ngx.say("x") }', init_by_lua_block: '{ local x = 1 }',
    lua_socket_connect_timeout: '5s',
  },
};

type Verdict = 'ok' | 'not allowed here' | 'invalid number of arguments' | 'invalid value' | string;

/** What nginx said, reduced to the kinds the table predicts; anything else is returned whole, so it fails loudly. */
function verdictOf(line: string, context: DirectiveContext, name: string): Verdict {
  const result = nginxTest((prefix) => configWith(line, context, name, prefix));
  if (result.ok) return 'ok';
  const message = result.errors[0]?.message ?? result.output;
  for (const kind of ['is not allowed here', 'invalid number of arguments', 'invalid value']) {
    if (message.includes(kind)) return kind.replace(/^is /, '');
  }
  return message;
}

/** The directive line with `args`; a block directive keeps its `{ ... }` body after the arguments. */
function lineOf(entry: DirectiveEntry, args: string): string {
  return entry.block ? `${entry.name} ${args}` : `${entry.name} ${args};`.replace(' ;', ';');
}

function bodyOf(args: string): string {
  const open = args.indexOf('{');
  return open < 0 ? '' : args.slice(open);
}

/** An argument count the table rejects (undefined for `any`): 0 for 1+, 2 for a flag, else the first count not taken. */
function wrongCount(entry: DirectiveEntry): number | undefined {
  for (let count = 0; count <= 8; count++) if (!argumentCountValid(entry, count)) return count;
  return undefined;
}

const cases = Object.entries(SAMPLE).flatMap(([module, directives]) =>
  Object.entries(directives).map(([name, args]) => {
    const entry = directiveEntries(name).find((e) => e.module === module);
    return { module, name, args, entry };
  }),
);

describe('the directive table predicts nginx -t (Debian nginx 1.22.1, stream, mail, lua)', () => {
  it('samples at least 40 directives, each found in the table and present in 1.22.1', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const c of cases) {
      expect(c.entry, `${c.module} ${c.name}`).toBeDefined();
      expect(existsInVersion(c.entry!, DEBIAN_NGINX), c.name).toBe(true);
    }
  });

  it.each(cases)('$module $name', ({ name, args, entry }) => {
    if (!entry) throw new Error(`${name} not in the table`);
    const allowed = BUILDABLE.find((context) => directiveIn(name, context) === entry);
    if (!allowed) throw new Error(`${name}: no buildable context in ${entry.contexts.join(', ')}`);
    expect(verdictOf(lineOf(entry, args), allowed, name), `${name} in ${allowed}`).toBe('ok');

    // A context where no module's entry of this name is allowed: nginx knows the name and refuses the place.
    const refused = BUILDABLE.find((context) => !directiveIn(name, context));
    if (refused) expect(verdictOf(lineOf(entry, args), refused, name), `${name} in ${refused}`).toBe('not allowed here');

    const count = wrongCount(entry);
    if (count !== undefined) {
      const words = Array.from({ length: count }, () => 'x').join(' ');
      const line = entry.block ? `${name} ${words} ${bodyOf(args) || '{ }'}` : `${name}${words ? ' ' + words : ''};`;
      expect(verdictOf(line, allowed, name), `${name} with ${count} argument(s)`).toBe('invalid number of arguments');
    }

    if (entry.values && entry.args !== 'any') {
      expect(valueAccepted(entry, 'no-such-word')).toBe(false);
      expect(verdictOf(`${name} no-such-word;`, allowed, name), `${name} no-such-word`).toBe('invalid value');
      const first = entry.values[0]!;
      expect(valueAccepted(entry, first)).toBe(true);
    }
  });
});

// Whole nginx configs that put one directive line in a chosen context, for checking the directive table against
// `nginx -t`. Each context gets the least around it that nginx needs to accept the rest of the file (a listen, an
// upstream server, a stream handler, mail's auth_http), so the only thing that can fail is the line under test.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DirectiveContext } from '../../server/src/model/directive-table.js';
import { NGINX_MODULES_DIR, type NginxPrefix } from '../support/nginx.js';

/** Contexts a test config can build (rtmp is not installed here). */
export const BUILDABLE: readonly DirectiveContext[] = [
  'main', 'events', 'http', 'server', 'location', 'if-in-server', 'if-in-location', 'limit_except', 'upstream',
  'stream', 'stream-server', 'stream-upstream', 'mail', 'mail-server',
];

/** Debian's dynamic modules the sample needs, dependencies first (ndk before lua). */
const MODULE_FILES = ['ngx_stream_module.so', 'ngx_mail_module.so', 'ndk_http_module.so', 'ngx_http_lua_module.so'];
const PACKAGES = 'libnginx-mod-stream libnginx-mod-mail libnginx-mod-http-lua';

export function loadModules(): string {
  return MODULE_FILES.map((file) => {
    const so = path.join(NGINX_MODULES_DIR, file);
    if (!existsSync(so)) throw new Error(`${so} not found: apt-get install -y ${PACKAGES}`);
    return `load_module ${so};`;
  }).join('\n');
}

/** Directives that install a stream server's handler: the filler `proxy_pass` is left out when one is under test. */
const STREAM_HANDLERS = new Set(['proxy_pass', 'return', 'pass']);

/** A complete main config with `line` placed in `context`. */
export function configWith(line: string, context: DirectiveContext, name: string, prefix: NginxPrefix): string {
  const at = (here: DirectiveContext): string => (context === here ? `${line}\n` : '');
  const streamHandler = STREAM_HANDLERS.has(name) && context === 'stream-server' ? '' : 'proxy_pass 127.0.0.1:1;\n';
  const http =
    `http {\n${prefix.httpTempPaths}\n${at('http')}` +
    `upstream backend {\nserver 127.0.0.1:1;\n${at('upstream')}}\n` +
    `server {\nlisten 127.0.0.1:1;\n${at('server')}` +
    `if ($arg_x) {\n${at('if-in-server')}}\n` +
    `location / {\n${at('location')}` +
    `if ($arg_y) {\n${at('if-in-location')}}\n` +
    `limit_except GET {\n${at('limit_except')}}\n` +
    `}\n}\n}\n`;
  const stream =
    `stream {\n${at('stream')}` +
    `upstream stream_backend {\nserver 127.0.0.1:1;\n${at('stream-upstream')}}\n` +
    `server {\nlisten 127.0.0.1:2;\n${streamHandler}${at('stream-server')}}\n}\n`;
  const mail =
    `mail {\nauth_http 127.0.0.1:1/auth;\n${at('mail')}` +
    `server {\nlisten 127.0.0.1:3;\nprotocol smtp;\n${at('mail-server')}}\n}\n`;
  return `${loadModules()}\n${at('main')}events {\n${at('events')}}\n${http}${stream}${mail}`;
}

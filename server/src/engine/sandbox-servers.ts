// The servers of `prove`'s sandbox (engine/sandbox-config.ts), both kinds nginx calls `server`: each server{}
// listens on one free 127.0.0.1 port of its own, keeping the TLS and HTTP/2 the original's listen, `ssl on` and
// `http2 on` give it, with the run's certificate in place of every file the TLS settings name; each upstream{}'s
// members become the stub. The walk that reads a server{}'s body stays in the rewriter: `open` is called before it
// and `close` after it, once every listen and pass of the server is known.
import type { Directive } from '../model/types.js';
import { EMBEDDED_CODE, quote, serverName, type Edit, type ServerState } from './sandbox-edits.js';
import { listenFlags, tlsDirective, type NginxModules } from './sandbox-protocols.js';

/** The rewriter's edit helpers: every change to a file goes through them (they keep the original's lines). */
export interface SandboxEdits {
  /** Replaces `at` (default: the directive) by `text`. */
  edit(directive: Directive, text: string, at?: { start: number; end: number }): Edit;
  /** Inserts `text` at the start of the directive's block; undefined when it has none. */
  insertInBlock(directive: Directive, text: string): Edit | undefined;
}

export interface ListenerOptions {
  modules: NginxModules;
  /** The generated certificate and key every TLS listener and CA setting of the copy uses. */
  certificate: { cert: string; key: string };
  /** A free 127.0.0.1 port for each server{} (asked once per server, in reading order). */
  nextPort(): number;
}

export class SandboxListeners {
  /** `http2 on` at http level (nginx 1.25.1+): every server's listener speaks HTTP/2. */
  private http2Default = false;

  constructor(
    private readonly edits: SandboxEdits,
    private readonly options: ListenerOptions,
  ) {}

  /** The state of a server{} about to be read: its port, and a listen when it has none of its own. */
  open(directive: Directive): ServerState {
    const state: ServerState = {
      port: this.options.nextPort(), name: serverName(directive), listened: false, tls: false, http2: this.http2Default, grpc: false, plans: [],
    };
    // nginx's default listen is *:80 (or 8000): the server gets its port here, and a listen an include brings goes.
    if (!directive.children.some((child) => child.name === 'listen')) {
      state.listen = this.edits.insertInBlock(directive, `listen 127.0.0.1:${state.port};`);
      state.listened = true;
    }
    return state;
  }

  /** Once the server is read: its listener's ssl/http2 flags, the certificate, and how its plans' requests go. */
  close(directive: Directive, state: ServerState): void {
    // gRPC clients speak HTTP/2 only: a server with a grpc_pass listens with http2 in the copy whatever it says.
    const http2 = state.http2 || (state.grpc && this.options.modules.http2);
    const flags = `${state.tls ? ' ssl' : ''}${http2 ? ' http2' : ''}`;
    if (state.listen) state.listen.text = state.listen.text.replace(';', `${flags};`);
    if (state.tls) {
      const { cert, key } = this.options.certificate;
      this.edits.insertInBlock(directive, `ssl_certificate ${quote(cert)}; ssl_certificate_key ${quote(key)};`);
    }
    // A cleartext HTTP/2 port (before nginx 1.25.1) speaks nothing else: every request to it is sent over HTTP/2.
    for (const plan of state.plans) {
      plan.tls = state.tls;
      plan.protocol = plan.grpc || (http2 && !state.tls) ? 'HTTP/2' : 'HTTP/1.1';
    }
  }

  /** The server's first listen becomes its port (its ssl/http2 noted); any other goes. */
  listen(directive: Directive, server: ServerState | undefined): void {
    // Outside a server{} read here (a snippet's), nothing says which port: removed, never left as written.
    if (!server || server.listened) {
      this.edits.edit(directive, '');
      return;
    }
    const flags = listenFlags(directive.args);
    server.tls ||= flags.tls && this.options.modules.ssl;
    server.http2 ||= flags.http2 && this.options.modules.http2;
    server.listen = this.edits.edit(directive, `listen 127.0.0.1:${server.port};`);
    server.listened = true;
  }

  /** `ssl on`, `http2 on` (they mark the server's listener) and the ssl_* settings (engine/sandbox-protocols.ts). */
  tls(directive: Directive, server: ServerState | undefined): void {
    const name = directive.name;
    const on = directive.args[0]?.value === 'on';
    if (name === 'ssl' || name === 'http2') {
      this.edits.edit(directive, '');
      if (name === 'ssl' && server) server.tls ||= on;
      else if (name === 'http2' && server) server.http2 ||= on;
      else if (name === 'http2' && !server) this.http2Default ||= on;
      return;
    }
    const policy = tlsDirective(name);
    if (policy === 'remove') this.edits.edit(directive, '');
    else if (policy === 'ca') this.edits.edit(directive, `${name} ${quote(this.options.certificate.cert)};`);
  }
}

/**
 * An upstream{}'s members, all the stub on `port`: the first server becomes it, the others and included members go
 * (an upstream with no server of its own gets one).
 */
export function upstreamMembers(edits: SandboxEdits, directive: Directive, port: number): void {
  let first = true;
  for (const child of directive.children) {
    if (child.name === 'server') {
      edits.edit(child, first ? `server 127.0.0.1:${port};` : '');
      first = false;
    } else if (['include', 'resolver', 'resolver_timeout'].includes(child.name) || EMBEDDED_CODE.test(child.name)) {
      // balancer_by_lua picks its own peers: left out with the members it would choose from.
      edits.edit(child, '');
    }
  }
  if (first) edits.insertInBlock(directive, `server 127.0.0.1:${port};`);
}

// `prove`'s sandbox: a workspace's files rewritten so that real nginx can run them on loopback and touch nothing real.
// Every listen becomes a free 127.0.0.1 port (TLS and HTTP/2 kept, the run's certificate in place of every file the
// TLS settings name), every upstream server and literal pass target the counting stub of its protocol
// (engine/sandbox-protocols.ts), logs, pid and temp paths go into the prefix, and anything that could reach another
// host (a pass through variables, resolver, a pass prove does not measure, stream{} and mail{}) is removed or
// replaced by `return`.
// Pure: no process runs here; the CLI writes `files` and runs nginx (cli/prove/). Host names are never resolved: a
// literal target is replaced by the stub whatever it names.
import path from 'node:path';
import { passes, type Pass } from '../analysis/passes.js';
import type { Workspace, WorkspaceRoot } from '../model/workspace.js';
import type { ConfigFile, ContextName, Directive } from '../model/types.js';
import {
  applyEdits, CACHE_PATHS, childContext, EMBEDDED_CODE, isRemoved, mirroredPath, quote, tempPaths, where, type Edit,
  type ServerState,
} from './sandbox-edits.js';
import { checksBeforePass, NO_FILES } from './sandbox-files.js';
import { droppedKey, moduleLine, taintedLocations } from './sandbox-modules.js';
import { carriesWebsocket, planLocation, type PlannedLocation } from './sandbox-plan.js';
import {
  ALL_MODULES, ofMissingModule, stubKind, stubPass, unreachable, upstreamKinds, type NginxModules,
  type PassReach, type StubKind, type StubPorts,
} from './sandbox-protocols.js';
import { SandboxListeners, upstreamMembers, type SandboxEdits } from './sandbox-servers.js';
import { TargetEdits, variableTargets, type VariableTarget } from './sandbox-variables.js';

export type { PlannedLocation } from './sandbox-plan.js';
export { mirroredPath, where, type ServerState } from './sandbox-edits.js';
export { droppedKey } from './sandbox-modules.js';

export interface SandboxOptions {
  /** The private prefix (absolute): files go to `<prefix>/conf/<original absolute path>`. */
  prefix: string;
  /** The HTTP stub's port on 127.0.0.1. */
  stubPort: number;
  /** The FastCGI stub's port on 127.0.0.1 (fastcgi_pass targets, and the members of upstreams they name). */
  fastcgiPort: number;
  /** The other stubs' ports: https:// targets, uwsgi (and suwsgi://), SCGI, gRPC (grpc:// and grpcs://). */
  protocolPorts: Omit<StubPorts, 'http' | 'fastcgi'>;
  /** The generated certificate and key (files in the prefix) every TLS listener and CA setting of the copy uses. */
  certificate: { cert: string; key: string };
  /** What the local nginx can run; default: everything. */
  modules?: NginxModules;
  /** A free 127.0.0.1 port for each server{} (asked once per server, in reading order). */
  nextPort(): number;
  /**
   * A `load_module` argument as the local nginx has it (an absolute path), or undefined when it has no such module:
   * the line is then left out. Without this function every load_module is left out.
   */
  module?: (argument: string) => string | undefined;
  /**
   * Directives nginx -t did not know once a module was left out (`file:line:name` -> why): each is left out and the
   * passes of its location are skipped with the reason (cli/prove/sandbox-run.ts finds them).
   */
  dropped?: ReadonlyMap<string, string>;
}

/** One nginx to run: a main config and the locations it serves. */
export interface SandboxInstance {
  mainConf: string;
  locations: PlannedLocation[];
}

export interface Sandbox {
  /** Absolute path in the prefix -> text. */
  files: Map<string, string>;
  instances: SandboxInstance[];
  /** What was left out and why, one line each. */
  notes: string[];
  /** The load_module lines left out because the local nginx lacks the module: `file:line object`. */
  missingModules: string[];
}

const OTHER_PASSES = new Set(['fastcgi_pass', 'uwsgi_pass', 'scgi_pass', 'grpc_pass', 'memcached_pass']);

class Rewriter implements SandboxEdits {
  readonly edits = new Map<ConfigFile, Edit[]>();
  readonly notes: string[] = [];
  private readonly passByDirective: Map<Directive, Pass>;
  private readonly seen = new Set<ConfigFile>();
  private caches = 0;
  /** The stub each upstream{}'s members become: the kind of the first pass naming it. */
  private readonly upstreamKinds: ReadonlyMap<Directive, StubKind>;
  private readonly modules: NginxModules;
  /** Each server{}'s port, TLS and HTTP/2 (engine/sandbox-servers.ts). */
  private readonly listeners: SandboxListeners;
  /** Passes through variables: what each evaluates to, and the edits that point it at its stub. */
  private readonly variables: ReadonlyMap<Directive, VariableTarget>;
  private readonly targetEdits = new TargetEdits();
  /** Its stub kind and the upstreams each pass names, also through variables (`set $app backend; proxy_pass http://$app;`). */
  private readonly reach: PassReach;
  locations: PlannedLocation[] = [];
  readonly missingModules: string[] = [];
  /** Locations holding a dropped directive -> why their passes are not measured. */
  private readonly tainted: ReadonlyMap<Directive, string>;

  constructor(
    private readonly workspace: Workspace,
    private readonly options: SandboxOptions,
  ) {
    this.modules = options.modules ?? ALL_MODULES;
    this.listeners = new SandboxListeners(this, {
      modules: this.modules, certificate: options.certificate, nextPort: () => options.nextPort(),
    });
    const all = passes(workspace);
    this.passByDirective = new Map(all.map((pass) => [pass.directive, pass]));
    this.variables = variableTargets(workspace, all, (pass, scheme) => {
      const kind = stubKind(pass, scheme);
      return this.port(typeof kind === 'string' ? kind : 'http');
    });
    this.tainted = taintedLocations(workspace, options.dropped);
    const known = (pass: Pass): Extract<VariableTarget, { kind: 'known' }> | undefined => {
      const variables = this.variables.get(pass.directive);
      return variables?.kind === 'known' ? variables : undefined;
    };
    this.reach = {
      kind: (pass) => stubKind(pass, known(pass)?.scheme ?? pass.target?.scheme),
      upstreams: (pass) =>
        (pass.resolution.kind === 'upstream' ? pass.resolution.upstreams : (known(pass)?.upstreams ?? [])).map((upstream) => upstream.directive),
    };
    this.upstreamKinds = upstreamKinds(all, this.reach, (upstream, known, kind) =>
      this.notes.push(`${where(upstream)}: upstream used as ${known} and as ${kind}: its members are the ${known} stub`));
  }

  private port(kind: StubKind): number {
    if (kind === 'http') return this.options.stubPort;
    return kind === 'fastcgi' ? this.options.fastcgiPort : this.options.protocolPorts[kind];
  }

  /**
   * Replaces `at` (default: the directive) by `text`, keeping as many line breaks as it held: every line of the copy
   * is the original's line, so what `nginx -t` says of the copy points at the user's file and line.
   */
  edit(directive: Directive, text: string, at?: { start: number; end: number }): Edit {
    const list = this.edits.get(directive.file) ?? [];
    const start = at?.start ?? directive.span.startOffset;
    const end = at?.end ?? directive.span.endOffset;
    const breaks = directive.file.text.slice(start, end).split('\n').length - 1;
    const made = { start, end, text: text + '\n'.repeat(breaks) };
    list.push(made);
    this.edits.set(directive.file, list);
    return made;
  }

  insertInBlock(directive: Directive, text: string): Edit | undefined {
    if (!directive.blockSpan) return undefined;
    const at = directive.blockSpan.startOffset + 1;
    return this.edit(directive, ` ${text} `, { start: at, end: at });
  }

  /** Visits a file's statements once per file (edits are made to the file, not to one place it is included at). */
  walkFile(root: WorkspaceRoot, file: ConfigFile, context: ContextName): void {
    if (this.seen.has(file)) return;
    this.seen.add(file);
    this.walk(root, file.directives, context, undefined);
  }

  private walk(root: WorkspaceRoot, directives: readonly Directive[], context: ContextName, server: ServerState | undefined): void {
    for (const directive of directives) {
      const name = directive.name;
      if (this.options.dropped?.has(droppedKey(directive))) this.edit(directive, '');
      else if (name === 'load_module') this.loadModule(directive);
      else if (name === 'include') this.include(root, directive, context, server);
      // A pass of a missing module is planned (skipped with why) and becomes `return 502` below.
      else if (ofMissingModule(name, this.modules) && !OTHER_PASSES.has(name)) this.edit(directive, '');
      else if (name === 'ssl' || name === 'http2' || name.startsWith('ssl_')) this.listeners.tls(directive, server);
      else if (isRemoved(name)) this.edit(directive, '');
      else if (EMBEDDED_CODE.test(name)) {
        this.edit(directive, '');
        this.notes.push(`${where(directive)}: ${name} left out (prove runs no embedded code: it could reach anything)`);
      }
      else if (context === 'main' && directive.blockSpan && name !== 'http' && name !== 'events') {
        // stream{}, mail{}, a module's rtmp{}...: their listeners and upstreams are not rewritten, so not run.
        this.edit(directive, '');
        this.notes.push(`${where(directive)}: ${name}{} left out (prove measures http only)`);
      } else if (name === 'http') {
        const prefix = this.options.prefix;
        const temp = tempPaths(prefix, this.modules).join(' ');
        this.insertInBlock(directive, `${temp} access_log off;`);
        this.walk(root, directive.children, 'http', undefined);
      } else if (CACHE_PATHS.has(name) && directive.args[0]) {
        const cache = path.join(this.options.prefix, 'cache', String(this.caches++));
        const argument = directive.args[0].span;
        this.edit(directive, cache, { start: argument.startOffset, end: argument.endOffset });
      } else if ((name === 'root' || name === 'alias') && directive.args[0]) {
        const argument = directive.args[0].span;
        this.edit(directive, NO_FILES, { start: argument.startOffset, end: argument.endOffset });
      } else if ((name === 'try_files' || name === 'if') && checksBeforePass(this.workspace, directive)) {
        this.edit(directive, '');
        this.notes.push(`${where(directive)}: ${name} left out: prove's request stands for a file that exists, so it reaches the pass`);
      } else if (name === 'upstream' && directive.blockSpan) this.upstream(directive);
      else if (name === 'server' && context === 'http' && directive.blockSpan) this.server(root, directive);
      else if (name === 'listen') this.listeners.listen(directive, server);
      else if (name === 'proxy_pass' || OTHER_PASSES.has(name)) this.pass(directive, server);
      else if (directive.blockSpan) this.walk(root, directive.children, childContext(directive), server);
    }
  }

  private include(root: WorkspaceRoot, directive: Directive, context: ContextName, server: ServerState | undefined): void {
    const targets = root.includes.get(directive) ?? [];
    if (targets.length === 0) {
      this.edit(directive, '');
      this.notes.push(`${where(directive)}: include ${directive.args[0]?.value ?? ''} not read, left out`);
      return;
    }
    this.edit(directive, targets.map((file) => `include ${quote(mirroredPath(this.options.prefix, file.path))};`).join(' '));
    for (const file of targets) {
      if (this.seen.has(file)) continue;
      this.seen.add(file);
      this.walk(root, file.directives, context, server);
    }
  }

  /** Every member becomes the stub of the kind its passes speak (engine/sandbox-servers.ts). */
  private upstream(directive: Directive): void {
    upstreamMembers(this, directive, this.port(this.upstreamKinds.get(directive) ?? 'http'));
  }

  private server(root: WorkspaceRoot, directive: Directive): void {
    const state = this.listeners.open(directive);
    this.walk(root, directive.children, 'server', state);
    this.listeners.close(directive, state);
  }

  /** The local nginx's copy of the module, else the line goes (its directives then fail nginx -t, see `dropped`). */
  private loadModule(directive: Directive): void {
    const line = moduleLine(directive, this.options.module);
    this.edit(directive, line.text);
    if (line.missing === undefined) return;
    this.missingModules.push(line.missing);
    this.notes.push(`${line.missing} left out (the local nginx has no such module)`);
  }

  private pass(directive: Directive, server: ServerState | undefined): void {
    const pass = this.passByDirective.get(directive);
    const websocket = pass !== undefined && carriesWebsocket(this.workspace, pass);
    const variables = this.variables.get(directive);
    const unreached = unreachable(pass, this.reach, this.upstreamKinds, this.modules);
    const plan = server ? planLocation(directive, pass, server, websocket, unreached, variables) : undefined;
    if (plan && server) {
      this.locations.push(plan);
      server.plans.push(plan);
    }
    let location = directive.parent;
    while (location && !this.tainted.has(location)) location = location.parent;
    if (plan && plan.skipped === null && location) plan.skipped = this.tainted.get(location)!;
    const clash = plan && plan.skipped === null && variables?.kind === 'known' ? this.targetEdits.clash(variables.edits) : undefined;
    if (plan && clash) plan.skipped = `target set through variables: ${where(clash.directive)} is rewritten for another pass already`;
    if (plan && server) server.grpc ||= plan.grpc && plan.skipped === null;
    const kind = pass ? this.reach.kind(pass) : undefined;
    if (!pass || plan?.skipped !== null || typeof kind !== 'string') {
      this.edit(directive, 'return 502;');
      return;
    }
    if (variables?.kind === 'known') {
      // The set (or the literal part of the pass) that gives the host and port now gives the stub's; nothing else.
      for (const edit of this.targetEdits.claim(variables.edits)) this.edit(edit.directive, edit.text, edit);
      return;
    }
    // A literal address or unix: socket: its protocol's stub (nginx makes an implicit, never pooled upstream of it).
    if (pass.resolution.kind === 'implicit') this.edit(directive, stubPass(pass, kind, this.port(kind)));
  }
}

/**
 * The sandbox of a workspace: main-context roots run as they are (rewritten), http-context roots together inside a
 * generated main config; roots of any other context are left out with a note.
 */
export function buildSandbox(workspace: Workspace, options: SandboxOptions): Sandbox {
  const rewriter = new Rewriter(workspace, options);
  const instances: SandboxInstance[] = [];
  const httpRoots: WorkspaceRoot[] = [];
  for (const root of workspace.roots) {
    if (root.context === 'main') {
      rewriter.locations = [];
      rewriter.walkFile(root, root.file, 'main');
      instances.push({ mainConf: mirroredPath(options.prefix, root.file.path), locations: rewriter.locations });
    } else if (root.context === 'http') httpRoots.push(root);
    else {
      // Rewritten all the same (nothing of it may reach out if a later slice runs it), but not run.
      rewriter.walkFile(root, root.file, root.context);
      rewriter.notes.push(`${root.file.path}: a ${root.context}-context file on its own is not run (pass its main config)`);
    }
  }
  const files = new Map<string, string>();
  if (httpRoots.length > 0) {
    rewriter.locations = [];
    for (const root of httpRoots) rewriter.walkFile(root, root.file, 'http');
    const temp = tempPaths(options.prefix, options.modules ?? ALL_MODULES).map((line) => `    ${line}`);
    const includes = httpRoots.map((root) => `    include ${quote(mirroredPath(options.prefix, root.file.path))};`);
    const mainConf = path.join(options.prefix, 'nginx-keepalive-main.conf');
    files.set(mainConf, ['events {}', 'http {', ...temp, '    access_log off;', ...includes, '}', ''].join('\n'));
    instances.push({ mainConf, locations: rewriter.locations });
  }
  for (const file of workspace.files) {
    files.set(mirroredPath(options.prefix, file.path), applyEdits(file.text, rewriter.edits.get(file) ?? []));
  }
  return { files, instances, notes: rewriter.notes, missingModules: rewriter.missingModules };
}

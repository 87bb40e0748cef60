// `prove`'s request for a named location (`location @app { proxy_pass … }`): no request names it, so it is measured
// through a location of the same server that sends requests there: its `try_files … @app` (the sandbox's root is a
// directory that does not exist, so no file is found and nginx goes to @app), or its `error_page N … @app` where it
// answers N itself (`return N`, or 404 from a location that only serves files). The request is that location's.
// Whether nginx really took the jump is what the measurement shows: a request that never reaches the upstream is
// reported as not measured.
import { statementsNamed, type Scope } from '../analysis/scopes.js';
import type { Directive } from '../model/types.js';

export type RequestPath = { path: string } | { skipped: string };

/** Directives that answer the request themselves (a pass, a return, code): such a location serves no 404 of its own. */
const ANSWERS = /_pass$|^return$|^try_files$|_by_lua|^js_content$|^perl$|^echo/;

function where(directive: Directive): string {
  return `${directive.file.path}:${directive.span.start.line + 1}`;
}

function locations(scope: Scope): Scope[] {
  return scope.children.filter((child) => child.context === 'location').flatMap((child) => [child, ...locations(child)]);
}

/** The status `scope` answers with for any request: its own unconditional return, or 404 when it only serves files. */
function ownStatus(scope: Scope): number | undefined {
  const returned = statementsNamed(scope, 'return')[0]?.args[0]?.value;
  if (returned !== undefined) return /^\d{3}$/.test(returned) ? Number(returned) : undefined;
  return scope.statements.some((statement) => ANSWERS.test(statement.name)) ? undefined : 404;
}

/** The error_page lines in force in `scope`: its own, else the nearest enclosing level's (nginx inherits them whole). */
function errorPages(scope: Scope): readonly Directive[] {
  for (let level: Scope | undefined = scope; level; level = level.parent) {
    const own = statementsNamed(level, 'error_page');
    if (own.length > 0) return own;
  }
  return [];
}

/** How `from` sends its requests to `@name`, or undefined when it does not. */
function jumpTo(from: Scope, name: string): string | undefined {
  const tryFiles = statementsNamed(from, 'try_files')[0];
  if (tryFiles && tryFiles.args[tryFiles.args.length - 1]?.value === name && statementsNamed(from, 'return').length === 0) {
    return `try_files at ${where(tryFiles)} (no file in the sandbox)`;
  }
  const status = ownStatus(from);
  if (status === undefined) return undefined;
  for (const page of errorPages(from)) {
    if (page.args[page.args.length - 1]?.value !== name) continue;
    if (page.args.some((arg) => arg.value === String(status))) return `error_page ${status} at ${where(page)}`;
  }
  return undefined;
}

/**
 * The request for the named location whose scope is `named`: the path of the first location of its server that
 * jumps to it (one with no pass of its own first: its requests are then only this pass's), or why there is none.
 */
export function namedLocationRequest(named: Scope, requestPath: (location: Directive) => RequestPath): RequestPath & { via?: string } {
  const name = named.block?.args[0]?.value ?? '';
  const server = named.parent;
  if (!server || server.context !== 'server') return { skipped: 'named location outside a server' };
  const candidates = locations(server).filter((scope) => scope !== named && !scope.block?.args[0]?.value.startsWith('@'));
  const passing = (scope: Scope): boolean => scope.statements.some((statement) => statement.name.endsWith('_pass'));
  for (const scope of [...candidates.filter((one) => !passing(one)), ...candidates.filter(passing)]) {
    const via = jumpTo(scope, name);
    if (via === undefined || !scope.block) continue;
    const request = requestPath(scope.block);
    if ('path' in request) return { path: request.path, via: `location ${scope.block.args.map((arg) => arg.raw).join(' ')}, ${via}` };
  }
  return { skipped: `named location: no location of this server sends a request prove can make to ${name} (try_files, or error_page of a status it answers)` };
}

// What the grammar's error recovery read where nginx reads nothing. nginx stops at a file's first syntax error; the
// grammar recovers and reads on, building blocks nginx never would: `server_name {PUBLIC_HOST};` opens a block that
// swallows the rest of the server, `set $x {V};` one that holds the location's proxy_http_version,
// `{proxy_config}` turns the next line into arguments of a directive called `proxy_config}`. So a statement that
// contains the first error or comes after it is misread, and so is a level holding one (what it holds past the
// error is a guess): the keepalive rules neither report nor fix at a misread statement, and a lookup through a
// misread level is unknown (effective-lookup.ts). The syntax rule speaks for the file, as the directive rule does.
//
//   firstSyntaxError(file)   the offset of the file's first syntax problem; Infinity when it has none
//   isMisread(directive)     the statement contains its file's first syntax error or follows it
//   isMisreadLevel(scope)    the scope's block is misread, or one of its statements is (from whichever file)
//   isMisreadUpstream(u)     the upstream{} block, or a body of it (an included file's servers), is misread
//   isDisplaced(directive)   before the first error, but at another block depth than nginx reads it at (an opening
//                            quote with no closing one makes the grammar drop the block around it)
import { nginxStatementDepths } from '../model/nginx-first-error.js';
import type { ConfigFile, Directive } from '../model/types.js';
import type { Scope } from './scopes.js';
import type { Upstream } from './upstreams.js';
import { MemoMap } from '../util/memo-map.js';

const firstErrors = new WeakMap<ConfigFile, number>();

export function firstSyntaxError(file: ConfigFile): number {
  let offset = firstErrors.get(file);
  if (offset === undefined) {
    offset = Infinity;
    for (const problem of file.syntaxProblems) offset = Math.min(offset, problem.span.startOffset);
    firstErrors.set(file, offset);
  }
  return offset;
}

/**
 * Ends past the first error: it holds the error (a block around it, the statement it is in) or comes after it. A
 * block left open holds an error at the end of the file too: its span ends with its last statement, not a `}` of
 * its own (a closed block's brace always comes after its last statement).
 */
export function isMisread(directive: Directive): boolean {
  const first = firstSyntaxError(directive.file);
  if (directive.span.endOffset > first) return true;
  const last = directive.children.at(-1);
  return first !== Infinity && directive.blockSpan !== undefined && last !== undefined && last.span.endOffset >= directive.span.endOffset;
}

const depthsByFile = new WeakMap<ConfigFile, Map<number, number>>();

/**
 * In a file with a syntax error, the grammar's recovery may put a statement before the error in another block than
 * nginx's: `zone z 64k;` in an upstream whose next line opens a quote it never closes is read at the top level (the
 * upstream is lost), where it would be "not allowed". nginx reads it in the upstream; its error is the quote's.
 */
export function isDisplaced(directive: Directive): boolean {
  const file = directive.file;
  if (firstSyntaxError(file) === Infinity || file.isTemplate) return false;
  let depths = depthsByFile.get(file);
  if (!depths) {
    depths = nginxStatementDepths(file.text);
    depthsByFile.set(file, depths);
  }
  let depth = 0;
  for (let parent = directive.parent; parent; parent = parent.parent) depth++;
  return depths.get(directive.nameSpan.startOffset) !== depth;
}

const misreadLevels = new MemoMap<Scope, boolean>();

export function isMisreadLevel(scope: Scope): boolean {
  let misread = misreadLevels.get(scope);
  if (misread === undefined) {
    misread = (scope.block !== undefined && isMisread(scope.block)) || scope.statements.some(isMisread);
    misreadLevels.set(scope, misread);
  }
  return misread;
}

export function isMisreadUpstream(upstream: Upstream): boolean {
  return isMisread(upstream.directive) || upstream.bodies.some(isMisreadLevel);
}

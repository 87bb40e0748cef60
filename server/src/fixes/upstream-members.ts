// Placing a line among an upstream{} block's members, the way the keepalive fixes need it: after the servers and
// the balancer, as a statement of the block itself (never inside an included file another upstream may share, never
// inside a template `{{ range }}` that would render it once per server).
//
//   ownStatementOf(ws, upstream, d)           the statement of the upstream's block that is d or pulled d in (an
//                                             include); undefined when d is not reached from the block
//   lastMember(upstream)                      the last `server` or balancer directive, in nginx order
//   insertAfterStatement(ws, upstream, d, s)  a new statement `s` right after d's own statement, past the `{{ end }}`
//                                             of any template block around it; undefined when none is safe
//   insertAfterMembers(ws, upstream, s)       the same after lastMember, or as the block's last statement when it has
//                                             no members
//   insertLineAt(file, offset, indent, s)     `s` on a new line after the one holding offset (inline when code
//                                             follows on that line)
import type { TextEdit } from '../util/types.js';
import { insertIntoBlock, insertLineAfter, lineEndOf, startsLine } from './edits.js';
import type { Upstream } from '../analysis/upstreams.js';
import type { ConfigFile, Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { enclosingGuardsWithin, endAfterGuards } from '../analysis/template-blocks.js';

const BLANK_OR_COMMENT = /^[ \t]*(#.*)?$/;

function reaches(workspace: Workspace, include: Directive, file: ConfigFile, seen = new Set<Directive>()): boolean {
  if (seen.has(include)) return false;
  seen.add(include);
  return (workspace.includes.get(include) ?? []).some(
    (target) =>
      target === file ||
      allIncludes(target.directives).some((inner) => reaches(workspace, inner, file, seen)),
  );
}

function allIncludes(directives: readonly Directive[]): Directive[] {
  return directives.flatMap((d) => (d.name === 'include' ? [d] : allIncludes(d.children)));
}

export function ownStatementOf(workspace: Workspace, upstream: Upstream, directive: Directive): Directive | undefined {
  const block = upstream.directive;
  if (directive.parent === block) return directive;
  return block.children.find((child) => child.name === 'include' && reaches(workspace, child, directive.file));
}

export function lastMember(upstream: Upstream): Directive | undefined {
  const statements = upstream.bodies[0]?.statements ?? [];
  const members = [...upstream.servers, ...upstream.balancers];
  // Positions looked up once: indexOf in the comparator is quadratic in an upstream with a thousand servers.
  const position = new Map(statements.map((statement, index) => [statement, index]));
  return members.sort((a, b) => (position.get(a) ?? -1) - (position.get(b) ?? -1)).at(-1);
}

export function insertLineAt(file: ConfigFile, offset: number, indent: string, lineText: string): TextEdit {
  const text = file.text;
  const lineEnd = lineEndOf(text, offset);
  if (BLANK_OR_COMMENT.test(text.slice(offset, lineEnd))) {
    return { file: file.path, startOffset: lineEnd, endOffset: lineEnd, newText: file.eol + indent + lineText };
  }
  const after = /\s/.test(text[offset] ?? '') ? '' : ' ';
  return { file: file.path, startOffset: offset, endOffset: offset, newText: ` ${lineText}${after}` };
}

export function insertAfterStatement(
  workspace: Workspace,
  upstream: Upstream,
  directive: Directive,
  lineText: string,
): TextEdit | undefined {
  const own = ownStatementOf(workspace, upstream, directive);
  if (!own) return undefined;
  if (enclosingGuardsWithin(own, upstream.directive).length === 0) return insertLineAfter(own, lineText);
  const offset = endAfterGuards(own, upstream.directive);
  if (offset === undefined) return undefined;
  const sibling = upstream.directive.children.find(startsLine);
  const indent = startsLine(own) ? own.indent : (sibling?.indent ?? own.indent);
  return insertLineAt(own.file, offset, indent, lineText);
}

export function insertAfterMembers(workspace: Workspace, upstream: Upstream, lineText: string): TextEdit | undefined {
  const member = lastMember(upstream);
  if (!member) return insertIntoBlock(upstream.directive, lineText, 'end');
  return insertAfterStatement(workspace, upstream, member, lineText);
}

// The sandbox holds no files: every `root` and `alias` becomes a directory that cannot exist, so no real file is read
// or served, try_files goes on to its last step (a named location prove measures through it), and a location that
// only serves files answers 404 (ENOTDIR; a directory in the private prefix would answer 403 to a worker run as
// nobody). A guard that only lets requests for existing files reach a pass is left out instead (checksBeforePass).
import { scopeOf } from '../analysis/scopes.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';

export const NO_FILES = '/dev/null/nginx-keepalive-prove';

/**
 * `try_files $uri =404;` or `if (!-f $document_root$fastcgi_script_name) { return 404; }` in a location that passes
 * (PHP's guard against missing scripts): the sandbox has no files, so it would answer 404 to every request; left
 * out, the request reaches the pass as one for an existing file does. A try_files ending in a named location or a
 * URI jumps elsewhere when nothing is found: kept.
 */
export function checksBeforePass(workspace: Workspace, directive: Directive): boolean {
  const guard =
    directive.name === 'try_files'
      ? directive.args[directive.args.length - 1]?.value.startsWith('=') === true
      : /^\(\s*!\s*-[fe]\s/.test(directive.condition ?? '') && directive.children.every((child) => child.name === 'return');
  if (!guard) return false;
  return scopeOf(workspace, directive).some((scope) =>
    scope.context === 'location' && scope.statements.some((statement) => statement.name.endsWith('_pass')));
}

// Replaces a literal `proxy_set_header Connection upgrade;` with the upgrade map's variable, so ordinary requests no
// longer ask to upgrade: the connection-upgrade-literal rule's fix, and part of the upstream-keepalive fix for the
// passes that send it (adding keepalive would otherwise bring that finding out).
//
//   upgradeLiteralEdits(ws, header, addsUpgrade, options)   the value becomes the map's variable (the map reused or
//                                                           inserted: connection-map.ts), and `Upgrade $http_upgrade`
//                                                           goes before the line when the set has none; undefined
//                                                           where no map can be had
import type { ProxyHeader } from '../analysis/inheritance.js';
import type { ResolvedOptions, TextEdit } from '../util/types.js';
import type { Workspace } from '../model/workspace.js';
import { ensureUpgradeMap } from './connection-map.js';
import { insertLineBefore, replaceSpan } from './edits.js';
import { NoFix } from './placement.js';

export const UPGRADE_LINE = 'proxy_set_header Upgrade $http_upgrade;';

export function upgradeLiteralEdits(
  workspace: Workspace,
  header: ProxyHeader,
  addsUpgrade: boolean,
  options: ResolvedOptions,
): { variable: string; edits: TextEdit[] } | undefined {
  const { directive } = header;
  const value = directive.args[1]!;
  const map = ensureUpgradeMap(workspace, { file: directive.file, scope: header.level }, options);
  if (!map || map instanceof NoFix) return undefined;
  const quote = value.quoted || '';
  const edits = [replaceSpan(directive.file, value.span, quote + map.variable + quote), ...map.edits];
  if (addsUpgrade) edits.unshift(insertLineBefore(directive, UPGRADE_LINE));
  return { variable: map.variable, edits };
}

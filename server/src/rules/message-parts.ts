// Pieces of finding messages shared by the proxy rules: where a directive is written and which level it sits on.
// Messages are for people; no code may branch on them.
import path from 'node:path';
import type { Scope } from '../analysis/scopes.js';
import type { Fix } from '../core/types.js';
import { NoFix } from '../fixes/placement.js';
import type { Directive } from '../model/types.js';

/** `site.conf:12` */
export function writtenAt(directive: Directive): string {
  return `${path.basename(directive.file.path)}:${directive.span.start.line + 1}`;
}

/** `the server level`, `location /api`, `the http level` */
export function levelLabel(level: Scope): string {
  if (level.context === 'location' && level.block) {
    return `location ${level.block.args.map((argument) => argument.raw).join(' ')}`.trim();
  }
  return `the ${level.context} level`;
}

/** `"proxy_http_version 1.0"`: the directive's source text on one line. */
export function quoted(directive: Directive): string {
  return `"${[directive.name, ...directive.args.map((argument) => argument.raw)].join(' ')}"`;
}

/**
 * A finding's message and fix from what its fix builder returned: a fix withheld for a reason (fixes/placement.ts)
 * leaves the reason at the end of the message, so the user learns why nothing is offered.
 */
export function withFix(message: string, fix: Fix | NoFix | undefined): { message: string; fix: Fix | undefined } {
  if (fix instanceof NoFix) return { message: `${message}; no fix offered: ${fix.why}`, fix: undefined };
  return { message, fix };
}

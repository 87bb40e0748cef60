// Pieces of finding messages shared by the proxy rules: where a directive is written and which level it sits on.
// Messages are for people; no code may branch on them.
import path from 'node:path';
import type { Scope } from './scopes.js';
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



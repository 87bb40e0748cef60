// A rule is data (meta) plus a pure check over the workspace model. Findings carry their fix, computed with them.
import type { Finding, Fix, ResolvedOptions, Severity, Span } from '../util/types.js';
import type { Workspace } from '../model/workspace.js';

export interface RuleMeta {
  /** Stable kebab-case id; also the file name under rules/ and docs/rules/. */
  id: string;
  description: string;
  defaultSeverity: Severity;
  /** nginx versions the rule applies to, as a semver-like range ("<1.29.7", "*"). */
  nginxVersions: string;
  fixable: boolean;
}


export interface RuleReport {
  file: string;
  span: Span;
  message: string;
  /** Overrides the rule's severity for this finding (e.g. information for a template-guarded keepalive). */
  severity?: Severity;
  fix?: Fix;
}

export interface RuleContext {
  workspace: Workspace;
  options: ResolvedOptions;
  report(report: RuleReport): void;
}

export interface Rule {
  meta: RuleMeta;
  check(context: RuleContext): void;
}

export type { Finding };

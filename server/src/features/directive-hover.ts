// Hover for any directive name and any `$variable`, from the directive table: what the directive does, where nginx
// allows it (and whether here), its default, module, versions and link; for a variable, the regex capture, or the
// built-in module variable, it is. hover.ts adds the keepalive explanations and where a variable is set.
//
//   directiveHoverLines(ctx, directive)        Markdown lines, or undefined where nginx reads no directives
//   variableHoverLines(ctx, directive, name)   Markdown lines for a capture or a built-in variable
import { writtenAt } from '../analysis/message-parts.js';
import { contextOfDirective, enclosingBlocks, hasCustomBody } from '../model/directive-context.js';
import { existsInVersion, TABLE_VERSIONS, variableEntry } from '../model/directive-table.js';
import { directiveRule } from '../rules/directive.js';
import type { Directive } from '../model/types.js';
import { featureOptions, type FeatureContext } from './context.js';
import { protocolOf } from './completion-variables.js';
import { directiveReference, pickEntry, targetVersion, variableReference } from './directive-reference.js';
import { ruleStates } from './rule-states.js';
import { code, directiveCode, ruleLink } from './markdown.js';
import { capturesAround, regexCaptures, type CaptureSource } from './regex-captures.js';

/** A name that is (or holds) a template action, `{{ $x }}`: not a directive until rendered. */
function isTemplated(name: string): boolean {
  return name.includes('{{') || name.includes('{%') || name.includes('}}');
}

/** Inside these blocks the statements are the module's own table rows (`default upgrade;`), not directives. */
function inCustomBody(directive: Directive): boolean {
  return enclosingBlocks(directive).some((block) => hasCustomBody(block.name));
}

export function directiveHoverLines(ctx: FeatureContext, directive: Directive): string[] | undefined {
  if (isTemplated(directive.name)) return undefined;
  // A line of a module's own table has no reference, but may be one nginx refuses (geo's `volatile;` before 1.29.3).
  if (inCustomBody(directive)) return verdictLines(ctx, directive);
  const version = targetVersion(ctx.options);
  const context = contextOfDirective(ctx.workspace, directive);
  const entry = pickEntry(directive.name, context, version);
  const lines = entry
    ? directiveReference(entry, version)
    : [`**${directive.name}**: not in the directive table (nginx ${TABLE_VERSIONS.oldest}–${TABLE_VERSIONS.newest} and the modules Debian packages); a module of another build may define it.`];
  const verdict = verdictLines(ctx, directive);
  return verdict ? [...lines, '', ...verdict] : lines;
}

/** The directive rule's verdict here: the same state its finding reads, never re-derived. */
function verdictLines(ctx: FeatureContext, directive: Directive): string[] | undefined {
  const options = featureOptions(ctx.options);
  const reported = ruleStates(ctx.workspace, options).directive(directive);
  if (!reported) return undefined;
  const { headline } = directiveRule.message(reported, { workspace: ctx.workspace, options });
  return [`✗ ${headline} (${ruleLink('directive')})`];
}

function captureLines(source: CaptureSource, name: string): string[] | undefined {
  const where = `${directiveCode(source.directive)} (${writtenAt(source.directive)})`;
  if (/^[1-9]$/.test(name)) return Number(name) <= source.captures.count ? [`${code(`$${name}`)}: capture ${name} of ${where}`] : undefined;
  return source.captures.names.includes(name) ? [`${code(`$${name}`)}: named capture of ${where}`] : undefined;
}

/** Captures readable at `directive`: its own regex (rewrite), then the blocks around it, innermost first. */
function capturesAt(directive: Directive): CaptureSource[] {
  const own: CaptureSource[] = [];
  if (directive.name === 'rewrite' && directive.args[0]) own.push({ directive, captures: regexCaptures(directive.args[0].value) });
  return [...own, ...capturesAround(enclosingBlocks(directive))];
}

export function variableHoverLines(ctx: FeatureContext, directive: Directive, name: string): string[] {
  for (const source of capturesAt(directive)) {
    const lines = captureLines(source, name);
    if (lines) return lines;
  }
  const protocol = protocolOf(contextOfDirective(ctx.workspace, directive));
  const builtin = variableEntry(name, protocol);
  if (builtin) {
    const lines = variableReference(builtin, name);
    if (!existsInVersion(builtin, targetVersion(ctx.options))) lines.push('', '**Not in the nginx assumed here.**');
    return lines;
  }
  if (/^[0-9]+$/.test(name)) return [`${code(`$${name}`)}: no regex around it has capture ${name}`];
  return [`${code(`$${name}`)}: not set in the checked files and not a built-in ${protocol} variable of nginx`];
}

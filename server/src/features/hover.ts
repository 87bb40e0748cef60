// Hover: on an upstream name (the `upstream` block's, or a pass target naming it) the upstream's servers, its
// keepalive and whether connections are reused from the location (each check with its reason); on a directive the
// rules care about, a short explanation linking the rule documentation, under every directive's reference from the
// directive table (directive-hover.ts); on a `$variable`, where it is defined, else the capture or built-in it is.
//
//   hoverAt(ctx, offset)   { markdown, span } or undefined
import { passes, usersOf, type Pass } from '../analysis/passes.js';
import type { Upstream } from '../analysis/upstreams.js';
import { levelLabel, writtenAt } from '../analysis/message-parts.js';
import type { ResolvedOptions } from '../util/types.js';
import { featureOptions, type FeatureContext, type FeatureLocation } from './context.js';
import { directiveDoc } from './directive-docs.js';
import { directiveHoverLines, variableHoverLines } from './directive-hover.js';
import { locate, type Located, type VariableAt } from './locate.js';
import { code, directiveCode, ruleLink } from './markdown.js';
import { isPassDirective, upstreamsAt } from './navigation.js';
import { passReuse, type ReuseVerdict } from './reuse-pass.js';
import { balancerCheck, keepaliveCheck, serverList, type CheckStatus, type ReuseCheck } from './reuse-upstream.js';
import { variableSites } from './variables.js';
import path from 'node:path';
import { describeNginxTarget } from '../engine/nginx-target.js';

export interface HoverResult {
  markdown: string;
  span: FeatureLocation['span'];
}

const MAX_UPSTREAMS = 3;
const MAX_USERS = 8;
const MARK: Record<CheckStatus, string> = { ok: '✓', fail: '✗', unknown: '?' };
const VERDICT: Record<CheckStatus, string> = { ok: 'yes', fail: 'no', unknown: 'cannot tell statically' };

function checkLine(check: ReuseCheck): string {
  const link = check.ruleId && check.status !== 'ok' ? ` (${ruleLink(check.ruleId)})` : '';
  return `- ${MARK[check.status]} **${check.label}**: ${check.reason}${link}`;
}

function upstreamHeader(upstream: Upstream): string[] {
  return [`**upstream ${code(upstream.name)}** · ${writtenAt(upstream.directive)}`, '', `servers: ${serverList(upstream)}`];
}

function passSection(ctx: FeatureContext, pass: Pass, upstream: Upstream, options: ResolvedOptions): string[] {
  const verdict: ReuseVerdict = passReuse(ctx.workspace, pass, upstream, options);
  const title = `**Connections reused from ${levelLabel(pass.scope)}: ${VERDICT[verdict.status]}**`;
  return [...upstreamHeader(upstream), '', title, '', ...verdict.checks.map(checkLine)];
}

function userLine(ctx: FeatureContext, pass: Pass, upstream: Upstream, options: ResolvedOptions): string {
  const verdict = passReuse(ctx.workspace, pass, upstream, options);
  const failing = verdict.checks.filter((check) => check.status === verdict.status).map((check) => check.label);
  const why = verdict.status === 'ok' ? '' : ` (${failing.join(', ')})`;
  return `- ${code(pass.name)} in ${levelLabel(pass.scope)} (${writtenAt(pass.directive)}): reused: ${VERDICT[verdict.status]}${why}`;
}

function declarationSection(ctx: FeatureContext, upstream: Upstream, options: ResolvedOptions): string[] {
  const checks = [keepaliveCheck(ctx.workspace, upstream, options), balancerCheck(ctx.workspace, upstream, options)];
  const users = usersOf(ctx.workspace, upstream);
  const lines = [...upstreamHeader(upstream), '', ...checks.map(checkLine), ''];
  if (users.length === 0) return [...lines, 'No pass directive in the checked files uses it.'];
  const shown = users.slice(0, MAX_USERS).map((pass) => userLine(ctx, pass, upstream, options));
  const more = users.length > MAX_USERS ? [`- and ${users.length - MAX_USERS} more`] : [];
  return [...lines, `**Used by** (${users.length}):`, '', ...shown, ...more];
}

function passWithoutUpstream(pass: Pass): string[] | undefined {
  const target = code(pass.target?.text ?? '');
  if (pass.resolution.kind === 'implicit') {
    const link = pass.name === 'proxy_pass' ? ` (${ruleLink('proxy-pass-no-upstream')})` : '';
    return [`${target} names no upstream{} block: nginx makes an implicit upstream, which never keeps connections${link}`];
  }
  if (pass.resolution.kind === 'unresolved' && pass.resolution.reason !== 'no-target') {
    const why = pass.resolution.reason === 'variables' ? 'nginx variables' : 'template actions no upstream{} matches';
    return [`${target} has ${why}: which upstream it reaches is only known at run time`];
  }
  return undefined;
}

function upstreamHover(ctx: FeatureContext, located: Located, options: ResolvedOptions): string[] | undefined {
  const { directive } = located;
  const targets = upstreamsAt(ctx, located).slice(0, MAX_UPSTREAMS);
  if (isPassDirective(directive)) {
    const pass = passes(ctx.workspace).find((candidate) => candidate.directive === directive);
    if (!pass) return undefined;
    if (targets.length === 0) return passWithoutUpstream(pass);
    return targets.flatMap((upstream, i) => [...(i > 0 ? ['', '---', ''] : []), ...passSection(ctx, pass, upstream, options)]);
  }
  if (targets.length === 0) return undefined;
  return targets.flatMap((upstream, i) => [...(i > 0 ? ['', '---', ''] : []), ...declarationSection(ctx, upstream, options)]);
}

function variableHover(ctx: FeatureContext, variable: VariableAt): string[] | undefined {
  const definitions = variableSites(ctx.workspace, variable.name).definitions;
  if (definitions.length === 0) return undefined;
  const lines = definitions.slice(0, MAX_USERS).map((site) => `- ${directiveCode(site.directive)} (${writtenAt(site.directive)})`);
  return [`${code(`$${variable.name}`)} is set by:`, '', ...lines];
}

/** The table's reference for any directive; for those the rules read, their explanation and rules under it. */
function directiveHover(ctx: FeatureContext, located: Located): { lines: string[]; judged: boolean } | undefined {
  const reference = directiveHoverLines(ctx, located.directive);
  const doc = directiveDoc(located.directive);
  if (!doc) return reference && { lines: reference, judged: false };
  const rules = [`**${located.directive.name}**: ${doc.text}`, '', `Rules: ${doc.ruleIds.map(ruleLink).join(', ')}`];
  return { lines: reference ? [...reference, '', '---', '', ...rules] : rules, judged: true };
}

/**
 * Which nginx the verdicts assume and where that came from (the keepalive defaults changed in 1.29.7), under the
 * hovers that judge: upstreams, passes and the directives the rules read. Paths relative to the hovered file.
 */
function assumption(ctx: FeatureContext): string[] {
  const target = ctx.options.nginxTarget;
  if (!target) return [];
  const from = path.dirname(ctx.file.path);
  const show = (file: string) => {
    const relative = path.relative(from, file);
    return relative === '' ? path.basename(file) : relative;
  };
  return ['', `_Assuming ${describeNginxTarget(target, show)}._`];
}

export function hoverAt(ctx: FeatureContext, offset: number): HoverResult | undefined {
  const located = locate(ctx.file, offset);
  if (!located) return undefined;
  const options = featureOptions(ctx.options);
  const { directive, part } = located;
  if (located.variable) {
    const lines = variableHover(ctx, located.variable);
    if (lines) return { markdown: lines.join('\n'), span: located.variable.span };
  }
  if (part.kind === 'argument' && part.index === 0) {
    const lines = upstreamHover(ctx, located, options);
    if (lines) return { markdown: [...lines, ...assumption(ctx)].join('\n'), span: part.argument.span };
  }
  // A variable no file sets: a regex capture, a built-in one, or neither (a typo?).
  if (located.variable) {
    return { markdown: variableHoverLines(ctx, directive, located.variable.name).join('\n'), span: located.variable.span };
  }
  if (part.kind === 'name') {
    const hover = directiveHover(ctx, located);
    // The version assumed matters to the directives the rules judge; the table's versions say enough for the rest.
    if (hover) return { markdown: [...hover.lines, ...(hover.judged ? assumption(ctx) : [])].join('\n'), span: directive.nameSpan };
  }
  return undefined;
}

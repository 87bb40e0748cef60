// SARIF 2.1.0, the format GitHub code scanning (and most code-quality services) ingest: one run, the tool's rules
// with their documentation links, one result per finding, and a finding's fix as SARIF replacements. A result's
// message is the one-line headline; its detail and a withheld fix's reason are in its property bag, and an unsafe
// fix says so in the fix's.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Finding, Severity, Span } from '../util/types.js';
import { describeNginxTarget, type NginxTarget } from '../engine/nginx-target.js';
import { docsUrl } from '../engine/docs-url.js';
import type { RuleMeta } from '../analysis/rule-api.js';
import { VERSION } from './help.js';
import { leavesDirectory } from '../util/paths.js';
import type { FileReport } from './report.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const TOOL_INFORMATION_URI = 'https://github.com/nginx-keepalive/nginx-keepalive';
const SOURCE_ROOT = '%SRCROOT%';

type Level = 'error' | 'warning' | 'note';
const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

export interface SarifOptions {
  cwd: string;
  /** The rules' metadata, in registry order: a result's ruleIndex points into this list. */
  rules: readonly RuleMeta[];
  /** The nginx version the findings assume and its origin: the run's properties say it. */
  nginxTarget?: NginxTarget;
}

interface ArtifactLocation {
  uri: string;
  uriBaseId?: string;
}

interface RuleDescriptor {
  id: string;
  shortDescription: { text: string };
  helpUri?: string;
  defaultConfiguration: { level: Level };
}

/** Relative to the working directory (GitHub resolves %SRCROOT% to the checkout), or a file: URI outside it. */
function artifactLocation(file: string, cwd: string): ArtifactLocation {
  const relative = path.relative(cwd, file);
  if (relative === '' || leavesDirectory(relative)) return { uri: pathToFileURL(file).href };
  return { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: SOURCE_ROOT };
}

/** SARIF regions are 1-based; endColumn is exclusive, as ours is (columns in UTF-16 code units, see columnKind). */
function region(span: Span) {
  return {
    startLine: span.start.line + 1,
    startColumn: span.start.column + 1,
    endLine: span.end.line + 1,
    endColumn: span.end.column + 1,
  };
}

function descriptor(meta: Pick<RuleMeta, 'id' | 'description' | 'defaultSeverity'>, documented: boolean): RuleDescriptor {
  return {
    id: meta.id,
    shortDescription: { text: meta.description },
    ...(documented ? { helpUri: docsUrl(meta.id) } : {}),
    defaultConfiguration: { level: LEVEL[meta.defaultSeverity] },
  };
}

/** The registry's rules, plus one undocumented descriptor per other id a finding carries (internal-error). */
function ruleDescriptors(findings: readonly Finding[], rules: readonly RuleMeta[]): RuleDescriptor[] {
  const descriptors = rules.map((meta) => descriptor(meta, true));
  const known = new Set(rules.map((meta) => meta.id));
  for (const finding of findings) {
    if (known.has(finding.ruleId)) continue;
    known.add(finding.ruleId);
    descriptors.push(descriptor({ id: finding.ruleId, description: finding.ruleId, defaultSeverity: 'error' }, false));
  }
  return descriptors;
}

function fixesOf(finding: Finding, cwd: string) {
  if (!finding.fix) return undefined;
  const byFile = new Map<string, typeof finding.fix.edits>();
  for (const edit of finding.fix.edits) {
    const file = path.resolve(cwd, edit.file);
    // Appended in place: copying the list per edit is quadratic for an upstream's fix with thousands of edits.
    const list = byFile.get(file);
    if (list) list.push(edit);
    else byFile.set(file, [edit]);
  }
  const artifactChanges = [...byFile].map(([file, edits]) => ({
    artifactLocation: artifactLocation(file, cwd),
    replacements: edits.map((edit) => ({
      deletedRegion: { charOffset: edit.startOffset, charLength: edit.endOffset - edit.startOffset },
      insertedContent: { text: edit.newText },
    })),
  }));
  // SARIF has no notion of a fix's safety: the property bag carries ours (util/types.ts FixSafety).
  const safety = finding.fix.safety === 'unsafe' || finding.unsafeFix ? { properties: { safety: 'unsafe' } } : {};
  return [{ description: { text: finding.fix.title }, artifactChanges, ...safety }];
}

function resultProperties(finding: Finding) {
  const properties = {
    ...(finding.detail !== undefined ? { detail: finding.detail } : {}),
    ...(finding.withheld !== undefined ? { fixWithheld: finding.withheld } : {}),
  };
  return Object.keys(properties).length > 0 ? { properties } : {};
}

function result(finding: Finding, file: string, ruleIndex: number, cwd: string) {
  const fixes = fixesOf(finding, cwd);
  return {
    ruleId: finding.ruleId,
    ruleIndex,
    level: LEVEL[finding.severity],
    message: { text: finding.message },
    locations: [{ physicalLocation: { artifactLocation: artifactLocation(file, cwd), region: region(finding.span) } }],
    ...(fixes ? { fixes } : {}),
    ...resultProperties(finding),
  };
}

/** The run's assumed nginx: `version` null is the pre-1.29.7 default; `file` as results name files. */
function targetProperties(target: NginxTarget, cwd: string) {
  const show = (file: string) => artifactLocation(file, cwd).uri;
  const file = target.file ?? target.undetermined?.file;
  return {
    description: describeNginxTarget(target, (shown) => decodeURIComponent(show(shown))),
    version: target.version ?? null,
    label: target.label,
    source: target.source,
    ...(file !== undefined ? { file: show(file) } : {}),
    ...(target.line !== undefined || target.undetermined ? { line: target.line ?? target.undetermined!.line } : {}),
    ...(target.image !== undefined || target.undetermined ? { image: target.image ?? target.undetermined!.image } : {}),
  };
}

export function formatSarif(reports: FileReport[], options: SarifOptions): string {
  const findings = reports.flatMap((report) => report.findings);
  const rules = ruleDescriptors(findings, options.rules);
  const indexOf = new Map(rules.map((rule, index) => [rule.id, index]));
  const results = reports.flatMap((report) =>
    report.findings.map((finding) => result(finding, report.path, indexOf.get(finding.ruleId)!, options.cwd)),
  );
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'nginx-keepalive', informationUri: TOOL_INFORMATION_URI, version: VERSION, rules } },
        originalUriBaseIds: { [SOURCE_ROOT]: { uri: `${pathToFileURL(options.cwd).href.replace(/\/?$/, '/')}` } },
        columnKind: 'utf16CodeUnits',
        ...(options.nginxTarget ? { properties: { nginxTarget: targetProperties(options.nginxTarget, options.cwd) } } : {}),
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

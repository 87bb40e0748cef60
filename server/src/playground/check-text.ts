// The playground's one job, without the page: the findings and the fixed text of one config, as `check` and
// `check --fix` give them for the same text under the same file name. Nothing is read from a disk: the text is the
// only file there is (an include of anything else is reported as unreadable, as the CLI reports an include it
// cannot read), and the wasm parser is fetched by the page (parser/loader.ts loadWasmFrom).
import { analyze } from '../engine/analyze.js';
import { docsUrl } from '../engine/docs-url.js';
import { fixAll } from '../engine/fix-all.js';
import type { AnalyzeOptions } from '../engine/types.js';
import { createVirtualHost } from '../model/virtual-host.js';
import { findRule } from '../rules/registry.js';
import { unifiedDiff } from '../util/unified-diff.js';
import type { Finding, Severity } from '../util/types.js';

/** Where the checked text lives: a directory of its own, so its name is all that tells what kind of file it is. */
export const PLAYGROUND_DIRECTORY = '/playground';

export interface PlaygroundInput {
  text: string;
  /** The file's name (`nginx.conf`, `nginx.conf.sigil`, `nginx.conf.j2`): it decides the template dialect. */
  fileName: string;
  /** As `--nginx-version`; empty or undefined as the CLI's default. */
  nginxVersion?: string;
}

export interface PlaygroundFinding {
  ruleId: string;
  severity: Severity;
  message: string;
  detail?: string;
  /** 1-based, as the CLI prints them. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The rule's one-line description and its documentation page; undefined for what is not a rule. */
  docs?: { description: string; url: string };
}

export interface PlaygroundResult {
  findings: PlaygroundFinding[];
  /** The text after every safe fix (`check --fix`); the input text when nothing applied. */
  fixedText: string;
  /** `--diff`'s unified diff of the fixes; empty when nothing applied. */
  diff: string;
  fixesApplied: number;
}

function toPlaygroundFinding(finding: Finding): PlaygroundFinding {
  const { start, end } = finding.span;
  const rule = findRule(finding.ruleId);
  const result: PlaygroundFinding = {
    ruleId: finding.ruleId,
    severity: finding.severity,
    message: finding.message,
    line: start.line + 1,
    column: start.column + 1,
    endLine: end.line + 1,
    endColumn: end.column + 1,
  };
  if (finding.detail !== undefined) result.detail = finding.detail;
  if (rule) result.docs = { description: rule.meta.description, url: docsUrl(rule.meta.id) };
  return result;
}

/** Invalid input (a version that is not one) is thrown as analyze() throws it: the page shows the message. */
export async function checkText(input: PlaygroundInput): Promise<PlaygroundResult> {
  const path = `${PLAYGROUND_DIRECTORY}/${input.fileName}`;
  const documents = [{ path, text: input.text }];
  const options: AnalyzeOptions = { host: createVirtualHost(documents) };
  if (input.nginxVersion) options.nginxVersion = input.nginxVersion;
  const findings = await analyze(documents, options);
  const fixed = await fixAll(documents, options);
  const fixedText = fixed.texts.get(path) ?? input.text;
  return {
    findings: findings.filter((finding) => finding.file === path).map(toPlaygroundFinding),
    fixedText,
    diff: fixedText === input.text ? '' : unifiedDiff(input.text, fixedText, `a/${input.fileName}`, `b/${input.fileName}`),
    fixesApplied: fixed.applied,
  };
}

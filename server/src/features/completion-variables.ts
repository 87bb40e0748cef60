// The `$variables` a place can read, for completion: regex captures of the blocks around it, those the workspace
// defines (set, map, geo, split_clients...), names of prefix variables it already uses (`$http_upgrade`), and the
// built-in ones of the table for the place's protocol and nginx version.
import { writtenAt } from '../analysis/message-parts.js';
import type { NginxVersion } from '../analysis/versions.js';
import { allVariables, existsInVersion, variableEntry, type DirectiveContext } from '../model/directive-table.js';
import type { Directive } from '../model/types.js';
import type { Workspace } from '../model/workspace.js';
import { code, directiveCode } from './markdown.js';
import { capturesAround, type CaptureSource } from './regex-captures.js';
import { allVariableSites } from './variables.js';

export interface VariableCandidate {
  /** Without `$`. */
  name: string;
  detail: string;
  /** Markdown, for those the workspace defines; built-in ones are documented from the table on request. */
  documentation?: string;
  /** The table's protocol, for a built-in one. */
  protocol?: 'http' | 'stream';
  /** Lower sorts first: captures and definitions, then names in use, then built-in ones. */
  rank: number;
}

export function protocolOf(context: DirectiveContext | undefined): 'http' | 'stream' {
  return context?.startsWith('stream') ? 'stream' : 'http';
}

const MAX_DEFINITIONS_SHOWN = 5;

function captureCandidates(sources: readonly CaptureSource[]): VariableCandidate[] {
  const candidates: VariableCandidate[] = [];
  // At run time the innermost regex matched last sets $1..: only its numbered captures are offered.
  const numbered = sources.find((source) => source.captures.count > 0);
  const where = (source: CaptureSource) => `${directiveCode(source.directive)} (${writtenAt(source.directive)})`;
  for (let i = 1; numbered && i <= Math.min(numbered.captures.count, 9); i++) {
    candidates.push({ name: String(i), detail: 'regex capture', documentation: `Capture ${i} of ${where(numbered)}`, rank: 0 });
  }
  for (const source of sources) {
    for (const name of source.captures.names) {
      candidates.push({ name, detail: 'named regex capture', documentation: `Named capture of ${where(source)}`, rank: 0 });
    }
  }
  return candidates;
}

function workspaceCandidates(workspace: Workspace, protocol: 'http' | 'stream'): VariableCandidate[] {
  const candidates: VariableCandidate[] = [];
  for (const sites of allVariableSites(workspace).values()) {
    const first = sites.definitions[0] ?? sites.uses[0];
    if (!first || /^[0-9]+$/.test(first.name)) continue;
    if (sites.definitions.length > 0) {
      const lines = sites.definitions.slice(0, MAX_DEFINITIONS_SHOWN).map((site) => `- ${directiveCode(site.directive)} (${writtenAt(site.directive)})`);
      const documentation = [`${code(`$${first.name}`)} is set by:`, '', ...lines].join('\n');
      candidates.push({ name: first.name, detail: `set by ${sites.definitions[0]!.directive.name}`, documentation, rank: 0 });
      continue;
    }
    // A used name is offered when the table knows it through a prefix (`$http_upgrade`); exact built-in names come
    // from the table below, and an unknown name may be a typo, not something to spread.
    const entry = variableEntry(first.name, protocol);
    if (entry?.prefix) candidates.push({ name: first.name, detail: `built-in ($${entry.name}*)`, protocol, rank: 1 });
  }
  return candidates;
}

function builtinCandidates(protocol: 'http' | 'stream', version: NginxVersion): VariableCandidate[] {
  return allVariables()
    .filter((variable) => variable.protocol === protocol && existsInVersion(variable, version))
    .map((variable) => ({
      name: variable.name,
      detail: variable.prefix ? `built-in prefix: $${variable.name}<name>` : `built-in · ${variable.module}`,
      protocol,
      rank: 2,
    }));
}

/** Every variable readable at a place inside `blocks`, one candidate per name (the first, by rank, wins). */
export function variablesInScope(
  workspace: Workspace,
  blocks: readonly Directive[],
  context: DirectiveContext | undefined,
  version: NginxVersion,
): VariableCandidate[] {
  const protocol = protocolOf(context);
  const all = [...captureCandidates(capturesAround(blocks)), ...workspaceCandidates(workspace, protocol), ...builtinCandidates(protocol, version)];
  const seen = new Set<string>();
  return all.filter((candidate) => {
    const key = candidate.name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

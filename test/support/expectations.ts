// Inline expectations of fixture files, and the comparison of expected with actual findings.
//
//   listen 80 # expect: syntax            exactly these findings start on this line (ids separated by commas;
//                                         repeat an id to expect it twice)
//   # expect-next-line: syntax            the same, for the next line (when that line cannot hold a comment,
//                                         e.g. it opens an unterminated string)
//   # nginx-keepalive-test: nginx-version=1.30.0 context=server modules=http_lua
//                                         options for the whole fixture (see FixtureOptions)
//
// Markers are found textually, line by line, whatever the nginx tokenizer would make of the line: a marker inside
// a quoted string still counts, which is what invalid fixtures need.

export interface FixtureOptions {
  /** Passed as AnalyzeOptions.nginxVersion. */
  nginxVersion?: string;
  /** Where the real-nginx cross-check includes the file: main, http (default), server, location or stream. */
  context?: NginxContext;
  /** Dynamic modules the real-nginx cross-check loads (e.g. http_lua). */
  modules?: string[];
  /** For an envsubst `.template`: the environment the real-nginx cross-check renders it with (`envsubst=NAME=value`). */
  envsubst?: Record<string, string>;
}

export type NginxContext = 'main' | 'http' | 'server' | 'location' | 'stream';
const CONTEXTS: readonly NginxContext[] = ['main', 'http', 'server', 'location', 'stream'];

export interface ParsedFixture {
  /** 1-based line number -> rule ids expected to start there (with repeats). */
  expected: Map<number, string[]>;
  options: FixtureOptions;
}

export interface ActualFinding {
  /** 1-based line where the finding starts. */
  line: number;
  ruleId: string;
  message: string;
}

const RULE_ID = /^[a-z][a-z0-9-]*$/;
const MARKER = /#\s*expect(-next-line)?\s*:(.*)$/;
const OPTIONS = /#\s*nginx-keepalive-test\s*:(.*)$/;

export class MarkerError extends Error {}

function parseRuleIds(list: string, where: string): string[] {
  const ids = list.split(',').map((s) => s.trim());
  for (const id of ids) {
    if (!RULE_ID.test(id)) throw new MarkerError(`${where}: bad rule id ${JSON.stringify(id)} in expect marker`);
  }
  return ids;
}

function parseOptions(text: string, where: string, options: FixtureOptions): void {
  for (const pair of text.trim().split(/\s+/).filter(Boolean)) {
    const eq = pair.indexOf('=');
    const key = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    if (value === '') throw new MarkerError(`${where}: option ${JSON.stringify(pair)} needs key=value`);
    if (key === 'nginx-version') {
      if (!/^\d+\.\d+\.\d+$/.test(value)) throw new MarkerError(`${where}: nginx-version must be x.y.z, got ${value}`);
      options.nginxVersion = value;
    } else if (key === 'context') {
      if (!(CONTEXTS as readonly string[]).includes(value)) {
        throw new MarkerError(`${where}: context must be one of ${CONTEXTS.join(', ')}, got ${value}`);
      }
      options.context = value as NginxContext;
    } else if (key === 'modules') {
      options.modules = value.split(',');
    } else if (key === 'envsubst') {
      const assign = value.indexOf('=');
      if (assign <= 0) throw new MarkerError(`${where}: envsubst must be NAME=value, got ${value}`);
      options.envsubst = { ...options.envsubst, [value.slice(0, assign)]: value.slice(assign + 1) };
    } else {
      throw new MarkerError(`${where}: unknown fixture option ${JSON.stringify(key)}`);
    }
  }
}

/** Reads the markers of one fixture file. `name` is only used in error messages. */
export function parseFixture(text: string, name = 'fixture'): ParsedFixture {
  const expected = new Map<number, string[]>();
  const options: FixtureOptions = {};
  const lines = text.split(/\r?\n/);
  const add = (line: number, ids: string[]): void => {
    expected.set(line, [...(expected.get(line) ?? []), ...ids]);
  };
  lines.forEach((content, index) => {
    const line = index + 1;
    const where = `${name}:${line}`;
    const option = OPTIONS.exec(content);
    if (option) {
      parseOptions(option[1]!, where, options);
      return;
    }
    const marker = MARKER.exec(content);
    if (!marker) return;
    const ids = parseRuleIds(marker[2]!, where);
    if (marker[1]) {
      if (line >= lines.length) throw new MarkerError(`${where}: expect-next-line on the last line`);
      add(line + 1, ids);
    } else {
      add(line, ids);
    }
  });
  return { expected, options };
}

/**
 * Compares expected with actual findings of one file, as multisets per line. Returns one human-readable line per
 * problem, e.g. `fixture.conf:12 unexpected syntax "missing ;"` or `fixture.conf:3 missing syntax`; empty if they match.
 */
export function compareFindings(name: string, expected: Map<number, string[]>, actual: ActualFinding[]): string[] {
  const remaining = new Map<number, string[]>();
  for (const [line, ids] of expected) remaining.set(line, [...ids]);
  const problems: { line: number; text: string }[] = [];
  for (const finding of [...actual].sort((a, b) => a.line - b.line)) {
    const ids = remaining.get(finding.line);
    const index = ids ? ids.indexOf(finding.ruleId) : -1;
    if (ids && index !== -1) {
      ids.splice(index, 1);
    } else {
      problems.push({
        line: finding.line,
        text: `${name}:${finding.line} unexpected ${finding.ruleId} ${JSON.stringify(finding.message)}`,
      });
    }
  }
  for (const [line, ids] of remaining) {
    for (const id of ids) problems.push({ line, text: `${name}:${line} missing ${id}` });
  }
  return problems.sort((a, b) => a.line - b.line).map((p) => p.text);
}

// The `directive` rule's headlines for the value problems of analysis/directive-values.ts, in nginx's words first
// (`invalid parameter "x"`, `"x" directive invalid value`), then what to write instead. Kept apart from
// rules/directive.ts so that file stays one screenful per concern; the rule's message() is the only caller.
import { shortened } from '../util/shortened.js';
import type { DirectiveProblem } from './directive-checks.js';

/** What a slot handler takes, for the headline's "use ..." (examples as nginx.org writes them). */
const SYNTAX_HINT: Partial<Record<string, string>> = {
  number: 'a whole number',
  size: 'a size such as 512k or 10m',
  'size-or-variables': 'a size such as 512k or 10m',
  offset: 'a size such as 512k, 10m or 1g',
  msec: 'a time such as 500ms, 30s or 5m',
  sec: 'a time such as 30s, 5m or 1h',
  bufs: 'a count and a size such as 8 4k',
};

export type ValueKindProblem = Extract<DirectiveProblem, { kind: 'slot-value' | 'parameter' | 'return-code' | 'listen-address' | 'listen-value' | 'body-line' | 'count' }>;

/** nginx's own words first (`invalid parameter "x"`), then what to write instead. */
export function valueHeadline(name: string, problem: ValueKindProblem): string {
  const value = shortened(problem.value, 24);
  switch (problem.kind) {
    case 'slot-value': {
      if (problem.since) return `"${name}" directive invalid value "${value}": variables need nginx ${problem.since}+`;
      return `"${name}" directive ${problem.words} "${value}": use ${SYNTAX_HINT[problem.syntax] ?? 'a valid value'}`;
    }
    case 'parameter': {
      if (problem.since) return `invalid parameter "${value}" of "${name}": it needs nginx ${problem.since}+`;
      if (problem.suggestion) return `invalid parameter "${value}" of "${name}": did you mean "${problem.suggestion}"?`;
      return `invalid parameter "${value}" of "${name}": fix or remove it`;
    }
    case 'return-code':
      return `invalid return code "${value}": use a code (301, 404...) or an http:// or https:// URL`;
    case 'listen-address':
      return problem.reason === 'port'
        ? `invalid port in "${value}" of the "listen" directive: use a port from 1 to 65535`
        : `host not found in "${value}" of the "listen" directive: a port is digits only`;
    case 'body-line': {
      const why = problem.since ? `"${value}" alone needs nginx ${problem.since}+` : `"${value}" is not a ${problem.block} parameter`;
      return `invalid number of the ${problem.block} parameters: ${why}`;
    }
    case 'listen-value':
      return `invalid ${problem.name} "${value}": use ${problem.name === 'rcvbuf' || problem.name === 'sndbuf' ? 'a size such as 64k' : 'a whole number'}`;
    case 'count':
      return problem.zeroSince
        ? `invalid value "${value}" in "${name}" directive: use a number above 0 ("${value}" needs nginx ${problem.zeroSince}+)`
        : `invalid value "${value}" in "${name}" directive: use a number of connections`;
  }
}

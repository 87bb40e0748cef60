// `directive`: what `nginx -t` would reject about a directive, from the directive table (model/directive-table.ts):
// an unknown name, a dynamic module's directive with no load_module for it, a directive of another nginx release,
// one not allowed in its context, a wrong number of arguments, a bad flag/enum word, and a duplicate nginx refuses.
//
// Each root is walked as nginx reads it (analysis/directive-walk.ts), includes expanded in place. A root whose top
// context is only guessed (a snippet without a `context=` comment or "contexts" setting) is read in every context
// it could be included in, as the corpus's `nginx -t` tried them, and judged in the one where it does best: a
// snippet is only wrong when it is wrong wherever it could go. Template actions never count as directives, and an
// argument a template renders is not counted. No fix: the right change (spelling, module, place) is the author's.
// Also a pass to `name:port` where an upstream{} is called `name` (analysis/upstream-port.ts), which nginx refuses
// whichever file holds the upstream.
import type { Rule, RuleContext, RuleState } from '../analysis/rule-api.js';
import type { DirectiveContext } from '../model/directive-table.js';
import { directiveEntries, moduleInfo } from '../model/directive-table.js';
import type { ConfigFile, Directive } from '../model/types.js';
import type { Span } from '../util/types.js';
import type { WorkspaceRoot } from '../model/workspace.js';
import { listed, shortened } from '../util/shortened.js';
import { checkDirective, type CheckEnvironment, type DirectiveProblem } from '../analysis/directive-checks.js';
import { DUPLICATE_REJECTED } from '../analysis/directive-duplicates.js';
import { walkRoot } from '../analysis/directive-walk.js';
import { RootEnvironment } from '../analysis/root-environment.js';
import { writtenAt } from '../analysis/message-parts.js';
import { valueHeadline } from '../analysis/directive-value-headlines.js';
import { upstreamPortConflicts } from '../analysis/upstream-port.js';
import { locationNestingProblem, nestingHeadline } from '../analysis/location-nesting.js';
import { emptyUpstreamProblem } from '../analysis/empty-upstream.js';
import { mapEntryProblem } from '../analysis/map-entries.js';
import { preciseContext } from '../model/directive-context.js';
import { snippetTops } from '../analysis/snippet-context.js';
import { distributionBuild } from '../model/distribution-builds.js';
import { firstSyntaxError, isDisplaced } from '../analysis/misread.js';
import { plusDirective, type PlusDirective } from '../model/nginx-plus.js';
import { plusDetail, unknownDetail } from '../analysis/unknown-directive.js';

export interface DirectiveState extends RuleState {
  name: string;
  problem: DirectiveProblem;
  /** For a snippet checked on its own: the top context it was read in, and why (analysis/snippet-context.ts). */
  assumed?: string;
  /** An unknown name NGINX Plus has (nginx.org documents it as commercial). */
  plus?: PlusDirective;
  /** The name of the statement the problem is about (the hover shows it there); `span` is where nginx points. */
  at: Span;
}

/**
 * Where a problem is shown: on the line nginx names, which is the line its reader is on when the directive is
 * handled: where it ends (its `;`, or a block's `{`). On the word nginx refuses when it is on that line, else on the
 * name when that is, else on the last word there (the terminator when it stands alone).
 */
function problemSpan(directive: Directive, problem: DirectiveProblem): Span {
  const terminator = directive.blockSpan
    ? { start: directive.blockSpan.start, startOffset: directive.blockSpan.startOffset }
    : { start: { ...directive.span.end, column: Math.max(0, directive.span.end.column - 1) }, startOffset: directive.span.endOffset - 1 };
  const line = terminator.start.line;
  // A line of a block's body is read (and refused) on its own line.
  if (problem.kind === 'body-line') return problem.span;
  if ('span' in problem && problem.span.start.line === line) return problem.span;
  if (directive.nameSpan.start.line === line) return directive.nameSpan;
  for (let i = directive.args.length - 1; i >= 0; i--) {
    const arg = directive.args[i]!;
    if (arg.span.start.line === line) return arg.span;
  }
  const end = { ...terminator.start, column: terminator.start.column + 1 };
  return { start: terminator.start, end, startOffset: terminator.startOffset, endOffset: terminator.startOffset + 1 };
}

/** A directive the walk finds a problem with; its state (where it is shown) is made only for the top kept. */
interface Found {
  directive: Directive;
  problem: DirectiveProblem;
}

function problemsUnder(root: WorkspaceRoot, top: DirectiveContext, env: CheckEnvironment, within?: Directive): Found[] {
  const found: Found[] = [];
  // The walk visits a file's directives together: its first error is looked up when the file changes.
  let file: ConfigFile | undefined;
  let firstError = Infinity;
  walkRoot(root, top, (directive, frame) => {
    if (directive.file !== file) {
      file = directive.file;
      firstError = firstSyntaxError(file);
    }
    // Past a file's first syntax error its blocks are guesses (nginx stops there): the syntax rule speaks for it. So
    // are blocks before it that the grammar's recovery lost (only a file with an error has those).
    if (handledAt(directive) >= firstError || (firstError !== Infinity && isDisplaced(directive))) return;
    const problem = checkDirective(directive, frame, env) ?? locationNestingProblem(directive) ?? emptyUpstreamProblem(directive) ?? mapEntryProblem(directive);
    if (problem) found.push({ directive, problem });
  }, within);
  return found;
}

function stateOf({ directive, problem }: Found): DirectiveState {
  // An empty upstream is refused at its `}`, when nginx has read the block; a map's entry where the entry ends. The
  // hover shows a problem on the statement it is about: a body line's, else the directive's name (not at a `}`).
  const own = problem.kind === 'empty-upstream' || problem.kind === 'map-entry';
  const at = problem.kind === 'map-entry' ? problem.entry : problem.kind === 'body-line' || own ? problem.span : directive.nameSpan;
  const span = own ? problem.span : problemSpan(directive, problem);
  const state: DirectiveState = { file: directive.file.path, span, name: directive.name, problem, at };
  // A name close to no known one may be a module's the table lacks: nginx may accept it, so a warning. A name one
  // edit from a known directive is a typo nginx rejects.
  // NGINX Plus's names are said as such (not "did you mean": `status` is not a typo), warnings for the same reason.
  const plus = problem.kind === 'unknown' ? plusDirective(directive.name) : undefined;
  if (plus) state.plus = plus;
  if (problem.kind === 'unknown' && (plus || !problem.suggestion)) state.severity = 'warning';
  return state;
}

function statesUnder(root: WorkspaceRoot, top: DirectiveContext, env: CheckEnvironment, within?: Directive): DirectiveState[] {
  return problemsUnder(root, top, env, within).map(stateOf);
}

/**
 * Where nginx's tokenizer hands the directive to its module: at the `{` of a block, at the end of a simple directive.
 * A syntax error before that point (a statement it swallowed, a quote inside it) stops nginx before the directive is
 * checked, so nothing is said about it but that error.
 */
const handledAt = (directive: Directive): number => directive.blockSpan?.startOffset ?? directive.span.endOffset - 1;

/** The root's top context is known: it is read in that one, not judged by the findings of each candidate. */
const isCertain = (root: WorkspaceRoot): boolean => root.basis === 'stated' || (root.context === 'main' && root.basis === 'inferred');

/**
 * A root's findings: in its known context, or in the candidate context where the fewest directives are misplaced
 * (analysis/snippet-context.ts: by its place, else its content; the first candidate on ties). A misplaced
 * directive's finding says which context was assumed and why.
 */
function rootStates(root: WorkspaceRoot, env: CheckEnvironment): DirectiveState[] {
  const known = preciseContext(root.context);
  if (isCertain(root)) return known ? statesUnder(root, known, env) : [];
  // Judged by misplaced directives only: a wrong context hides the blocks it cannot open, and with them their
  // other findings, so fewer findings overall would favour the wrong context.
  const misplaced = (found: Found[]) => found.filter((one) => one.problem.kind === 'not-allowed').length;
  const { tops, why } = snippetTops(root);
  let best: Found[] | undefined;
  let bestTop: DirectiveContext | undefined;
  let bestMisplaced = 0;
  for (const top of tops) {
    const found = problemsUnder(root, top, env);
    const count = misplaced(found);
    if (!best || count < bestMisplaced) {
      best = found;
      bestTop = top;
      bestMisplaced = count;
    }
    if (bestMisplaced === 0) break;
  }
  const assumed = `${contextWord(bestTop ?? 'http')} (from ${why})`;
  return (best ?? []).map((one) => {
    const state = stateOf(one);
    if (one.problem.kind === 'not-allowed') state.assumed = assumed;
    return state;
  });
}

const CONTEXT_WORDS: Partial<Record<DirectiveContext | 'any', string>> = {
  'if-in-server': 'if (server)',
  'if-in-location': 'if',
  'stream-server': 'stream server',
  'stream-upstream': 'stream upstream',
  'mail-server': 'mail server',
};
const contextWord = (context: DirectiveContext | 'any'): string => CONTEXT_WORDS[context] ?? context;

function countWords(args: string): string {
  if (args === 'flag') return 'one: on or off';
  if (args === 'any') return 'any number';
  if (args.endsWith('+')) return `at least ${args.slice(0, -1)}`;
  return args === '0' ? 'none' : args.split('|').join(' or ');
}

function versionHeadline(
  name: string,
  problem: Extract<DirectiveProblem, { kind: 'version' }>,
  context: RuleContext,
): string {
  const target = context.options.nginxVersion?.join('.') ?? '';
  const build = problem.backportedIn?.[0];
  if (problem.since && build) {
    return `"${name}" needs nginx ${problem.since}+ (target ${target}), or ${distributionBuild(build)?.label}'s build: set nginxBuild "${build}"`;
  }
  if (problem.since) return `"${name}" needs nginx ${problem.since}+ (target ${target}): remove it or raise nginxVersion`;
  const replacement = directiveEntries(name).find((entry) => entry.deprecated)?.deprecated;
  const instead = replacement ? `use "${replacement}"` : 'remove it';
  return `"${name}" was removed in nginx ${problem.until} (target ${target}): ${instead}`;
}

function headline(state: DirectiveState, context: RuleContext): string {
  // Names are cut to 28 characters so every headline stays under 100 (test/messages.test.ts).
  const name = shortened(state.name, 28);
  const problem = state.problem;
  switch (problem.kind) {
    case 'unknown':
      if (state.plus) return `"${name}" is an NGINX Plus directive: open-source nginx rejects it`;
      if (problem.suggestion) return `unknown directive "${name}": did you mean "${problem.suggestion}"?`;
      return `unknown directive "${name}": fix the name, or add it to "directives.extra"`;
    case 'not-loaded':
      return `"${name}" is from ${problem.module}, which is not loaded: add its load_module line`;
    case 'version':
      return versionHeadline(name, problem, context);
    case 'not-allowed':
      return `"${name}" directive is not allowed in ${contextWord(problem.context)}: move it to ${listed(problem.allowed.map(contextWord), 2)}`;
    case 'arguments': {
      const later = problem.since ? ` (${problem.given} from nginx ${problem.since})` : '';
      return `invalid number of arguments in "${name}" directive: it takes ${countWords(problem.expected)}${later}`;
    }
    case 'value': {
      const value = shortened(problem.value, 16);
      const later = problem.since ? ` ("${value}" needs nginx ${problem.since}+)` : '';
      return `invalid value "${value}" in "${name}" directive: use ${listed(problem.accepted, 3)}${later}`;
    }
    case 'slot-value':
    case 'parameter':
    case 'return-code':
    case 'listen-address':
    case 'listen-value':
    case 'body-line':
    case 'count':
      return valueHeadline(name, problem);
    case 'duplicate':
      return `"${name}" directive is duplicate (first on line ${problem.first.nameSpan.start.line + 1}): remove one of them`;
    case 'upstream-port':
      return `upstream "${shortened(problem.host, 28)}" may not have port ${problem.port}: remove the port from ${name}`;
    case 'location-nesting':
      return nestingHeadline(problem);
    case 'empty-upstream':
      return 'no servers are inside upstream: add a server line to it';
    case 'map-entry':
      return `invalid number of the map parameters: an entry is a value and a result, not ${problem.words} words`;
  }
}

function detail(state: DirectiveState): string | undefined {
  if (state.assumed) return `Read as included at ${state.assumed}; state it with "# nginx-keepalive: context=…" if wrong.`;
  if (state.plus) return plusDetail(state.plus);
  if (state.problem.kind === 'unknown' && !state.problem.suggestion) return unknownDetail();
  if (state.problem.kind !== 'upstream-port') return undefined;
  const { host, upstream, otherRoot } = state.problem;
  const apart = otherRoot ? ` (checked apart from this file: nginx refuses this where it reads both in one http{})` : '';
  return (
    `"${shortened(host)}" names the upstream{} at ${writtenAt(upstream)}${apart}, and nginx refuses a port on a pass to an ` +
    "upstream{}: the upstream's server lines carry theirs. If a host of that name was meant, rename the upstream."
  );
}

/** The passes nginx refuses for a port on an upstream{} name; `within` a block, only those in it. */
function upstreamPortStates(context: RuleContext, within?: Directive): DirectiveState[] {
  const states: DirectiveState[] = [];
  for (const { pass, host, port, upstream, otherRoot } of upstreamPortConflicts(context.workspace, within)) {
    const directive = pass.directive;
    if (handledAt(directive) >= firstSyntaxError(directive.file)) continue;
    const problem: DirectiveProblem = { kind: 'upstream-port', host, port, upstream: upstream.directive, otherRoot };
    states.push({ file: directive.file.path, span: directive.nameSpan, name: directive.name, problem, at: directive.nameSpan });
  }
  return states;
}

/** One state per place: the first root's (roots in workspace order), as a root reaching a file first judges it. */
function firstByPlace(perRoot: readonly DirectiveState[][]): DirectiveState[] {
  const byPlace = new Map<string, DirectiveState>();
  for (const states of perRoot) {
    for (const state of states) {
      const key = `${state.file}\0${state.span.startOffset}`;
      if (!byPlace.has(key)) byPlace.set(key, state);
    }
  }
  return [...byPlace.values()];
}

export const directiveRule: Rule<DirectiveState> = {
  meta: {
    id: 'directive',
    description: 'A directive nginx -t would reject: unknown, not allowed here, wrong arguments or values, or a duplicate.',
    defaultSeverity: 'error',
    nginxVersions: '*',
    fixable: false,
  },
  detect(context) {
    const perRoot = context.workspace.roots.map((root) => rootStates(root, new RootEnvironment(root, context.options)));
    return firstByPlace([...perRoot, upstreamPortStates(context)]);
  },
  detectWithin(context, block) {
    // A block whose name nginx refuses twice is checked against its siblings, which a walk within it does not see;
    // a root judged in its best candidate context is judged by all its findings together. An upstream{}'s name,
    // which decides findings at passes anywhere (upstream-port.ts), is never between the braces of the block asked
    // about (model/incremental-model.ts re-reads only a block holding the whole edit, never http{}).
    const roots = context.workspace.roots;
    if (DUPLICATE_REJECTED.has(block.name) || !roots.every(isCertain)) return undefined;
    const perRoot = roots.map((root) => {
      const top = preciseContext(root.context);
      return top ? statesUnder(root, top, new RootEnvironment(root, context.options), block) : [];
    });
    return firstByPlace([...perRoot, upstreamPortStates(context, block)]);
  },
  message: (state, context) => {
    const why = detail(state);
    return why === undefined ? { headline: headline(state, context) } : { headline: headline(state, context), detail: why };
  },
};

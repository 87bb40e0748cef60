// The values nginx's set handlers refuse, decided from the generated value syntax (model/value-syntax.ts): a size,
// offset, time or number a ngx_conf_set_*_slot cannot parse ("invalid value", "invalid number"), and by hand for the
// few handlers that parse their own parameters, with the words they compare read from nginx's sources: listen's
// parameters and port, upstream server's parameters, keepalive's count and `local`, return's code, rewrite's flag.
// A value with a variable or a template expression is never judged (nginx may expand it; a template renders it),
// except where a later release's handler accepts variables and the target's does not (proxy_limit_rate $x).
import type { DirectiveEntry } from '../model/directive-table.js';
import { existsInVersion } from '../model/directive-table.js';
import type { Argument, Directive } from '../model/types.js';
import { handlerSince, handlerSyntax, parameterSince, parameterWords, type HandlerSyntax, type ParameterWords, type ValueKind } from '../model/value-syntax.js';
import type { Span } from '../util/types.js';
import { oneEditApart } from './directive-suggestion.js';
import { parsesAsNumber, parsesAsOffset, parsesAsSize, parsesAsTime } from './value-parsers.js';

export type ValueProblem =
  /** A slot handler's "invalid value" / "invalid number"; `since`: a later release accepts it (variables). */
  | { kind: 'slot-value'; value: string; syntax: ValueKind; words: 'invalid value' | 'invalid number'; span: Span; since?: string }
  /** `invalid parameter "x"` (listen, upstream server, rewrite, keepalive's second word). */
  | { kind: 'parameter'; value: string; suggestion?: string; since?: string; span: Span }
  | { kind: 'return-code'; value: string; span: Span }
  /** listen's address: `invalid port in "x"` or `host not found in "x"` (a port with letters in it). */
  | { kind: 'listen-address'; value: string; reason: 'port' | 'host'; span: Span }
  /** listen's `invalid backlog "backlog=x"` (also rcvbuf, sndbuf, fastopen): `name` is the parameter's. */
  | { kind: 'listen-value'; value: string; name: string; span: Span }
  /** A word alone on a line of a block whose body its module reads (geo): `invalid number of the geo parameters`. */
  | { kind: 'body-line'; value: string; block: string; span: Span; since?: string }
  /** `invalid value "x" in "keepalive" directive`. */
  | { kind: 'count'; value: string; span: Span; zeroSince?: string };

/** Whether nginx reads the argument as written: no variable, no template action, no envsubst placeholder. */
const literal = (arg: Argument): boolean => !arg.templated && !arg.value.includes('$');

function slotAccepts(kind: ValueKind, args: readonly Argument[]): Argument | undefined {
  const [first, second] = args;
  if (!first) return undefined;
  switch (kind) {
    case 'number':
      return parsesAsNumber(first.value) ? undefined : first;
    case 'size':
    case 'size-or-variables':
      return parsesAsSize(first.value) ? undefined : first;
    case 'offset':
      return parsesAsOffset(first.value) ? undefined : first;
    case 'msec':
    case 'sec':
      return parsesAsTime(first.value, kind === 'sec') ? undefined : first;
    case 'bufs':
      // ngx_conf_set_bufs_slot: a count and a size, neither 0.
      if (!parsesAsNumber(first.value) || /^0+$/.test(first.value)) return first;
      if (second && (!parsesAsSize(second.value) || /^0+[kKmM]?$/.test(second.value))) return second;
      return undefined;
    default:
      return undefined;
  }
}

/** The slot kinds whose values slotAccepts parses; other handlers' values are not judged here. */
const PARSED_SLOTS: ReadonlySet<ValueKind> = new Set<ValueKind>(['number', 'size', 'size-or-variables', 'offset', 'msec', 'sec', 'bufs']);

function slotProblem(directive: Directive, entry: DirectiveEntry, version: readonly number[] | undefined, syntax: HandlerSyntax): ValueProblem | undefined {
  // One pass over the words, no closures: every size, time and number directive of the run comes here.
  let variables = false;
  for (let i = 0; i < directive.args.length; i++) {
    const arg = directive.args[i]!;
    if (arg.templated || arg.value.includes('${')) return undefined;
    if (arg.value.includes('$')) variables = true;
  }
  if (variables) {
    // A size slot cannot parse a variable; a later release's complex-value handler can.
    if (syntax.value !== 'size' || !version) return undefined;
    const since = handlerSince(entry, version, 'size-or-variables');
    const arg = directive.args[0]!;
    return since ? { kind: 'slot-value', value: arg.value, syntax: syntax.value, words: 'invalid value', span: arg.span, since } : undefined;
  }
  const bad = slotAccepts(syntax.value, directive.args);
  if (!bad) return undefined;
  return { kind: 'slot-value', value: bad.value, syntax: syntax.value, words: syntax.value === 'number' ? 'invalid number' : 'invalid value', span: bad.span };
}

/** The parameter word nginx's parser would take `word` for, if any (`weight=` for `weight=5`). */
function matchedParameter(word: string, params: ParameterWords): string | undefined {
  if (params.words.includes(word)) return word;
  return params.prefixes.find((prefix) => word.startsWith(prefix));
}

function suggestParameter(word: string, params: ParameterWords): string | undefined {
  const name = word.includes('=') ? word.slice(0, word.indexOf('=') + 1) : word;
  const lower = name.toLowerCase();
  const candidates = [...params.words, ...params.prefixes.filter((p) => p.endsWith('='))];
  return candidates.find((c) => c === lower) ?? candidates.find((c) => oneEditApart(lower, c) || oneEditApart(lower.replace(/=$/, ''), c.replace(/=$/, '')));
}

/** upstream server's values: weight a number above 0, max_fails/max_conns numbers, fail_timeout a time in seconds. */
function upstreamValueValid(prefix: string, rest: string): boolean {
  switch (prefix) {
    case 'weight=':
      return parsesAsNumber(rest) && !/^0+$/.test(rest);
    case 'max_fails=':
    case 'max_conns=':
      return parsesAsNumber(rest);
    case 'fail_timeout=':
      return parsesAsTime(rest, true);
    default:
      return true;
  }
}

function parameterProblem(
  entry: DirectiveEntry,
  args: readonly Argument[],
  version: readonly number[] | undefined,
  values: (prefix: string, rest: string) => boolean = () => true,
): ValueProblem | undefined {
  const params = parameterWords(entry, version);
  if (!params) return undefined;
  for (const arg of args) {
    if (!literal(arg)) continue;
    const matched = matchedParameter(arg.value, params);
    if (matched && values(matched, arg.value.slice(matched.length))) continue;
    if (matched) return { kind: 'parameter', value: arg.value, span: arg.span };
    const since = version ? parameterSince(entry, version, (later) => matchedParameter(arg.value, later) !== undefined) : undefined;
    const suggestion = suggestParameter(arg.value, params);
    return { kind: 'parameter', value: arg.value, span: arg.span, ...(suggestion ? { suggestion } : {}), ...(since ? { since } : {}) };
  }
  return undefined;
}

/** ngx_parse_url for listen: `unix:` paths pass, a port must be 1-65535, a bare word of digits then letters is a typo. */
function listenAddressProblem(arg: Argument): ValueProblem | undefined {
  const text = arg.value;
  if (!literal(arg) || text.startsWith('unix:')) return undefined;
  let port: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    port = text[close + 1] === ':' ? text.slice(close + 2) : undefined;
  } else if (text.includes(':')) {
    port = text.slice(text.lastIndexOf(':') + 1);
  } else if (/^[0-9]+$/.test(text)) {
    port = text;
  } else if (/^[0-9]+[A-Za-z][A-Za-z0-9]*$/.test(text)) {
    return { kind: 'listen-address', value: text, reason: 'host', span: arg.span };
  }
  if (port === undefined) return undefined;
  const valid = /^[0-9]{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
  return valid ? undefined : { kind: 'listen-address', value: text, reason: 'port', span: arg.span };
}

/** listen's parameters with a value its parser reads itself (the message names the parameter). */
const LISTEN_VALUES: Readonly<Record<string, (rest: string) => boolean>> = {
  'backlog=': (rest) => parsesAsNumber(rest) && !/^0+$/.test(rest),
  'rcvbuf=': parsesAsSize,
  'sndbuf=': parsesAsSize,
  'fastopen=': parsesAsNumber,
};
const LISTEN_PREFIXES = Object.keys(LISTEN_VALUES);

function listenValueProblem(arg: Argument): ValueProblem | undefined {
  if (!literal(arg)) return undefined;
  const prefix = LISTEN_PREFIXES.find((p) => arg.value.startsWith(p));
  if (prefix && !LISTEN_VALUES[prefix]!(arg.value.slice(prefix.length))) {
    return { kind: 'listen-value', value: arg.value, name: prefix.slice(0, -1), span: arg.span };
  }
  return undefined;
}

/** Before this release the keepalive module refuses a count of 0; from it, 0 turns the cache off. */
const KEEPALIVE_ZERO_SINCE = '1.29.7';

function keepaliveProblem(directive: Directive, version: readonly number[] | undefined): ValueProblem | undefined {
  const [count, local] = directive.args;
  if (!count || !literal(count)) return undefined;
  const zeroAllowed = !version || existsInVersion({ since: KEEPALIVE_ZERO_SINCE }, version);
  if (!parsesAsNumber(count.value) || (/^0+$/.test(count.value) && !zeroAllowed)) {
    return { kind: 'count', value: count.value, span: count.span, ...(parsesAsNumber(count.value) ? { zeroSince: KEEPALIVE_ZERO_SINCE } : {}) };
  }
  if (local && literal(local) && local.value !== 'local') return { kind: 'parameter', value: local.value, span: local.span, ...(local.value.toLowerCase() === 'local' ? { suggestion: 'local' } : {}) };
  return undefined;
}

/** ngx_http_rewrite_return: a code 0-999, or (alone) a URL starting http://, https:// or $scheme. */
function returnProblem(directive: Directive): ValueProblem | undefined {
  const [code] = directive.args;
  if (!code || !literal(code)) return undefined;
  if (parsesAsNumber(code.value)) return Number(code.value) > 999 ? { kind: 'return-code', value: code.value, span: code.span } : undefined;
  if (directive.args.length === 1 && /^https?:\/\//.test(code.value)) return undefined;
  return { kind: 'return-code', value: code.value, span: code.span };
}

/** The geo blocks' bodies, as the value syntax names them (`geo body`), by entry. */
const geoBodies = new WeakMap<DirectiveEntry, { module: string; name: string }>();

/** geo's one-word lines (`ranges;`, `proxy_recursive;`, `volatile;` from 1.29.3), as its line handler takes them. */
function geoBodyProblem(directive: Directive, entry: DirectiveEntry, version: readonly number[] | undefined): ValueProblem | undefined {
  let body = geoBodies.get(entry);
  if (!body) geoBodies.set(entry, (body = { module: entry.module, name: `${entry.name} body` }));
  const words = parameterWords(body, version);
  if (!words) return undefined;
  for (const line of directive.children) {
    if (line.args.length > 0 || /[${}%<>@]/.test(line.name) || words.words.includes(line.name)) continue;
    const since = version ? parameterSince(body, version, (later) => later.words.includes(line.name)) : undefined;
    return { kind: 'body-line', value: line.name, block: entry.name, span: line.nameSpan, ...(since ? { since } : {}) };
  }
  return undefined;
}

/** nginx reads listen's parameters in order and stops at the first it refuses, whichever way. */
function listenProblem(directive: Directive, entry: DirectiveEntry, version: readonly number[] | undefined): ValueProblem | undefined {
  const address = directive.args[0];
  const problem = address && listenAddressProblem(address);
  if (problem) return problem;
  for (let i = 1; i < directive.args.length; i++) {
    const arg = directive.args[i]!;
    const found = parameterProblem(entry, [arg], version) ?? listenValueProblem(arg);
    if (found) return found;
  }
  return undefined;
}

type OwnParser = (directive: Directive, entry: DirectiveEntry, version: readonly number[] | undefined) => ValueProblem | undefined;

/** The handlers that parse their own parameters, by `module name`; every other entry's values are its slot's. */
const OWN_PARSERS: Readonly<Record<string, OwnParser>> = {
  'ngx_http_core_module listen': listenProblem,
  'ngx_stream_core_module listen': listenProblem,
  'ngx_mail_core_module listen': listenProblem,
  'ngx_http_upstream_module server': (directive, entry, version) => parameterProblem(entry, directive.args.slice(1), version, upstreamValueValid),
  'ngx_stream_upstream_module server': (directive, entry, version) => parameterProblem(entry, directive.args.slice(1), version, upstreamValueValid),
  'ngx_http_rewrite_module rewrite': (directive, entry, version) =>
    directive.args[2] ? parameterProblem(entry, directive.args.slice(2, 3), version) : undefined,
  'ngx_http_upstream_keepalive_module keepalive': (directive, _entry, version) => keepaliveProblem(directive, version),
  'ngx_http_geo_module geo': geoBodyProblem,
  'ngx_stream_geo_module geo': geoBodyProblem,
  'ngx_http_rewrite_module return': (directive) => returnProblem(directive),
};

/** What the entry's handler refuses about a directive's values (its argument count already passed), or undefined. */
export type ValueCheck = (directive: Directive) => ValueProblem | undefined;

/**
 * The value check of `entry` at `version`, picked once per entry and release (the directive rule keeps it); undefined
 * when the handler parses nothing judged here (strings, flags and enums are the word check's, third-party modules').
 */
export function valueCheck(entry: DirectiveEntry, version: readonly number[] | undefined): ValueCheck | undefined {
  const key = `${entry.module} ${entry.name}`;
  if (Object.hasOwn(OWN_PARSERS, key)) {
    const parse = OWN_PARSERS[key]!;
    return (directive) => parse(directive, entry, version);
  }
  const syntax = handlerSyntax(entry, version);
  if (!syntax || !PARSED_SLOTS.has(syntax.value)) return undefined;
  return (directive) => slotProblem(directive, entry, version, syntax);
}

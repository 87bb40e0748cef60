// A statement swallowed by the one before it: `server 127.0.0.1:8080` without its `;`, then `keepalive 16;` on the
// next line. nginx's tokenizer reads one directive, `server 127.0.0.1:8080 keepalive 16`, and the upstream module
// stops on it: `invalid parameter "keepalive"`, on the line of the `;`. The grammar reads the same single directive
// and nothing looks wrong, so a rule would see an upstream without keepalive and offer a second `keepalive 16;`,
// after which nginx still fails. Reported here as the syntax problem nginx makes of it, so the statement and what
// follows are read as nginx reads them: not at all (analysis/misread.ts).
//
// A word counts as a swallowed statement when it is the first word of a later line than the directive's name and a
// directive's name itself, and nginx rejects the directive with it:
//   - an upstream's `server` and a server's `listen`, whose parameters are a closed set of words: nginx's
//     `invalid parameter "keepalive"` when the word is none of them;
//   - any directive of the table whose argument count every form of it refuses (`proxy_pass http://a` then
//     `proxy_set_header Host $host;`: 4 words where it takes 1), while the words before the swallowed one were a
//     count it takes: nginx's `invalid number of arguments in "proxy_pass" directive`.
// A directive that takes any number of words (`index a.html` then `try_files $uri =404;`) swallows silently: nginx
// accepts it, and so does this. The line is the one nginx names: its tokenizer's, where the directive ends.
import { argumentCountValid, directiveEntries, entryAtVersion, type DirectiveEntry } from './directive-table.js';
import { shortened } from '../util/shortened.js';
import type { Span } from '../util/types.js';
import type { Argument, Directive, SyntaxProblem } from './types.js';

/** Words nginx takes whole, and prefixes it takes with a value (`weight=5`), per directive (http, stream, mail). */
interface Parameters {
  words: ReadonlySet<string>;
  prefixes: readonly string[];
}

// ngx_http_upstream_server and ngx_stream_upstream_server, nginx 1.22 to 1.31 (resolve and service= from 1.27.3).
const UPSTREAM_SERVER: Parameters = {
  words: new Set(['backup', 'down', 'resolve', 'drain']),
  prefixes: ['weight=', 'max_conns=', 'max_fails=', 'fail_timeout=', 'slow_start=', 'service=', 'route='],
};

// ngx_http_core_listen, ngx_stream_core_listen and ngx_mail_core_listen, together: one of them takes each of these.
const LISTEN: Parameters = {
  words: new Set([
    'default_server', 'default', 'bind', 'deferred', 'reuseport', 'ssl', 'http2', 'spdy', 'quic', 'proxy_protocol', 'udp',
    'multipath',
  ]),
  prefixes: ['setfib=', 'fastopen=', 'backlog=', 'rcvbuf=', 'sndbuf=', 'accept_filter=', 'ipv6only=', 'so_keepalive='],
};

function parametersOf(directive: Directive): Parameters | undefined {
  const parent = directive.parent;
  if (!parent?.blockSpan) return undefined;
  if (directive.name === 'server' && parent.name === 'upstream') return UPSTREAM_SERVER;
  if (directive.name === 'listen' && parent.name === 'server') return LISTEN;
  return undefined;
}

function accepted(argument: Argument, parameters: Parameters): boolean {
  // A template action or a quoted word is not ours to judge here.
  if (argument.templated || argument.quoted) return true;
  const word = argument.value;
  return parameters.words.has(word) || parameters.prefixes.some((prefix) => word.startsWith(prefix));
}

/** nginx's error when `directive` swallowed the statement after it, as nginx says it, on nginx's line. */
export function swallowedStatement(directive: Directive): SyntaxProblem | undefined {
  if (directive.blockSpan || directive.args.length < 2) return undefined;
  const parameters = parametersOf(directive);
  if (parameters) {
    const rejected = firstRejected(directive.args, parameters);
    if (!rejected || !startsStatement(directive, rejected)) return undefined;
    return { message: `invalid parameter "${rejected.value}"`, span: whereNginxSays(directive, rejected) };
  }
  return swallowedByCount(directive);
}

function firstRejected(args: readonly Argument[], parameters: Parameters): Argument | undefined {
  for (let i = 1; i < args.length; i++) if (!accepted(args[i]!, parameters)) return args[i];
  return undefined;
}

/** A word that begins a later line than the one before it and is a directive's name: a statement, read as a word. */
function startsStatement(directive: Directive, argument: Argument): boolean {
  if (argument.templated || argument.quoted || directiveEntries(argument.value).length === 0) return false;
  const index = directive.args.indexOf(argument);
  const before = index === 0 ? directive.nameSpan : directive.args[index - 1]!.span;
  return argument.span.start.line > before.end.line;
}

/** The entry as every release the table records has it: itself and each form before one of its changes. */
function everyForm(entry: DirectiveEntry): DirectiveEntry[] {
  return [entry, ...(entry.changes ?? []).map((change) => entryAtVersion(entry, releaseBefore(change.version)))];
}

function releaseBefore(release: string): number[] {
  const [major = 0, minor = 0, patch = 0] = release.split('.').map(Number);
  return patch > 0 ? [major, minor, patch - 1] : [major, minor - 1, 999];
}

/** nginx checks at most 8 words; from this count up every form answers alike (argumentCountValid). */
const COUNTS_TOLD_APART = 8;

/**
 * By directive name, whether some simple form of it (in any release the table records) takes each argument count,
 * the last entry standing for that count and more; asked for nearly every directive, so worked out once per name.
 * Only names of the table are kept (a bounded set); any other has no forms.
 */
const countsTaken = new Map<string, readonly boolean[]>();

function countsTakenBy(name: string): readonly boolean[] | undefined {
  const known = countsTaken.get(name);
  if (known) return known;
  const entries = directiveEntries(name);
  if (entries.length === 0) return undefined;
  const forms = entries.filter((entry) => !entry.block).flatMap(everyForm);
  const taken: boolean[] = [];
  for (let count = 0; count <= COUNTS_TOLD_APART; count++) taken.push(forms.some((form) => argumentCountValid(form, count)));
  const answer = forms.length === 0 ? NO_FORMS : taken;
  countsTaken.set(name, answer);
  return answer;
}

/** A name of the table with no simple form: no count to judge it by. */
const NO_FORMS: readonly boolean[] = [];

function takesCount(taken: readonly boolean[], count: number): boolean {
  return taken[Math.min(count, COUNTS_TOLD_APART)]!;
}

/** `invalid number of arguments` when the words up to a swallowed statement were a count nginx takes, and all are not. */
function swallowedByCount(directive: Directive): SyntaxProblem | undefined {
  const args = directive.args;
  const taken = countsTakenBy(directive.name);
  if (!taken || taken === NO_FORMS || takesCount(taken, args.length)) return undefined;
  if (args.some((arg) => arg.templated || arg.value.includes('${'))) return undefined;
  const swallowed = args.find((arg, index) => index > 0 && startsStatement(directive, arg));
  if (!swallowed || !takesCount(taken, args.indexOf(swallowed))) return undefined;
  const line = directive.args[args.indexOf(swallowed) - 1]!.span.end.line + 1;
  const name = shortened(directive.name, 28);
  return {
    message: `invalid number of arguments in "${name}" directive (line ${line} lacks its ";")`,
    span: whereNginxSays(directive, swallowed),
  };
}

/**
 * nginx names the line its tokenizer stands on when the directive ends: the `;`'s. The parameter itself is shown when
 * it is on that line (the usual `keepalive 16;`), else the `;`.
 */
function whereNginxSays(directive: Directive, rejected: Argument): Span {
  const end = directive.span;
  if (rejected.span.start.line === end.end.line) return rejected.span;
  return {
    start: { line: end.end.line, column: end.end.column - 1 },
    end: end.end,
    startOffset: end.endOffset - 1,
    endOffset: end.endOffset,
  };
}

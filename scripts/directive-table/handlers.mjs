// What each directive's set handler accepts, read from nginx's C sources: the kind of value a ngx_conf_set_*_slot
// parses (flag, size, time, number...), whether a second occurrence in one block is refused ("is duplicate"), and for
// the handlers that parse their own parameters (listen, upstream server, rewrite) the parameter words they compare
// against. Feeds value-syntax.mjs, which walks the releases; see README.md ("Value syntax").
import { blankComments, matchingClose, resolvePreprocessor } from './c-text.mjs';
import { readCSource } from './c-tables.mjs';

/**
 * nginx's generic slot handlers (src/core/ngx_conf_file.c and the http/stream script ones): the value each parses,
 * and whether it refuses a second occurrence (each checks its field is still UNSET and returns "is duplicate").
 */
const SLOTS = {
  ngx_conf_set_flag_slot: { value: 'flag', repeat: 'once' },
  ngx_conf_set_str_slot: { value: 'string', repeat: 'once' },
  ngx_conf_set_str_array_slot: { value: 'string', repeat: 'yes' },
  ngx_conf_set_keyval_slot: { value: 'string', repeat: 'yes' },
  ngx_conf_set_num_slot: { value: 'number', repeat: 'once' },
  ngx_conf_set_size_slot: { value: 'size', repeat: 'once' },
  ngx_conf_set_off_slot: { value: 'offset', repeat: 'once' },
  ngx_conf_set_msec_slot: { value: 'msec', repeat: 'once' },
  ngx_conf_set_sec_slot: { value: 'sec', repeat: 'once' },
  ngx_conf_set_bufs_slot: { value: 'bufs', repeat: 'once' },
  ngx_conf_set_enum_slot: { value: 'enum', repeat: 'once' },
  // ORs the bits in; a word given twice is only a warning.
  ngx_conf_set_bitmask_slot: { value: 'bitmask', repeat: 'yes' },
  ngx_conf_set_path_slot: { value: 'string', repeat: 'once' },
  ngx_conf_set_access_slot: { value: 'string', repeat: 'once' },
  // A size unless the value holds variables (proxy_limit_rate $x, since 1.27.0).
  ngx_http_set_complex_value_size_slot: { value: 'size-or-variables', repeat: 'once' },
  ngx_stream_set_complex_value_size_slot: { value: 'size-or-variables', repeat: 'once' },
};

/** Handlers whose own parameter words are recorded (the `directive` rule checks these parameters by hand). */
export const PARAMETER_HANDLERS = [
  'ngx_http_core_listen', 'ngx_stream_core_listen', 'ngx_mail_core_listen',
  'ngx_http_upstream_server', 'ngx_stream_upstream_server', 'ngx_http_rewrite',
];

/** Function bodies written nginx style (name at a line start, `{` on the next): name -> body text. */
function functionBodies(text) {
  const bodies = {};
  for (const m of text.matchAll(/^(\w+)\([^()]*\)[ \t]*\n\{/gm)) {
    const open = m.index + m[0].length - 1;
    const close = matchingClose(text, open);
    if (close > 0) bodies[m[1]] = text.slice(open + 1, close);
  }
  return bodies;
}

/**
 * Whether a custom handler lets a block hold the directive several times: "once" when it answers "is duplicate"
 * and keeps no list, "yes" when it never does, "mostly" when it keeps a list and refuses only some combinations
 * (`proxy_redirect off` after another proxy_redirect): the rule never calls those duplicates.
 */
function customRepeat(body) {
  if (!body.includes('"is duplicate"')) return 'yes';
  return /\bngx_(array|list)_push\b/.test(body) ? 'mostly' : 'once';
}

/** The words a parameter parser compares arguments with: `ngx_strcmp(value[i].data, "ssl")` and strncmp prefixes. */
function parameterWords(body) {
  const words = new Set();
  const prefixes = new Set();
  for (const m of body.matchAll(/\bngx_str(n?)cmp\(\s*value\[\w+\]\.data,\s*"([^"\\]*)"/g)) {
    if (m[2] === '') continue;
    if (m[1] === 'n' || m[2].endsWith('=')) prefixes.add(m[2]);
    else words.add(m[2]);
  }
  return { words: [...words].sort(), prefixes: [...prefixes].sort() };
}

/**
 * Block handlers whose body lines another function reads (`cf->handler`): the words that function takes alone on a
 * line (geo's `ranges;`, `proxy_recursive;`, `volatile;`), read between its one-word and two-word checks.
 */
const BODY_LINE_HANDLERS = { ngx_http_geo_block: 'ngx_http_geo', ngx_stream_geo_block: 'ngx_stream_geo' };

function singleWords(body) {
  const start = body.indexOf('cf->args->nelts == 1');
  const end = body.indexOf('cf->args->nelts != 2');
  if (start < 0 || end < start) return { words: [], prefixes: [] };
  return parameterWords(body.slice(start, end).replace(/value\[0\]/g, 'value[i]'));
}

/**
 * One release's handlers: `directives` maps "module name" -> { value, repeat }, `parameters` maps "module name" ->
 * { words, prefixes } for the PARAMETER_HANDLERS. `files` maps paths to C text; `facts` decides #if branches.
 */
export function readHandlers(files, facts) {
  const bodies = {};
  const commands = [];
  for (const text of Object.values(files)) {
    const source = readCSource(text, facts);
    Object.assign(bodies, functionBodies(resolvePreprocessor(blankComments(text), facts).lines.join('\n')));
    for (const module of source.modules) {
      for (const command of source.commands[module.commands] ?? []) commands.push({ module: module.name, ...command });
    }
  }
  const directives = {};
  const parameters = {};
  for (const command of commands) {
    const key = `${command.module} ${command.name}`;
    if (directives[key]) continue; // the first of two #if alternatives, as the directive table keeps
    const slot = SLOTS[command.set];
    const body = bodies[command.set];
    if (slot) directives[key] = { ...slot };
    else directives[key] = { value: 'custom', repeat: body === undefined ? 'unknown' : customRepeat(body) };
    if (PARAMETER_HANDLERS.includes(command.set) && body !== undefined) parameters[key] = parameterWords(body);
    const lineHandler = bodies[BODY_LINE_HANDLERS[command.set]];
    if (lineHandler !== undefined) parameters[`${key} body`] = singleWords(lineHandler);
  }
  return { directives, parameters };
}

// One source tree (an nginx release, or a third-party module built against one) -> its directives and variables, as
// nginx's configuration reader sees them: contexts from the NGX_*_CONF bits read per module type, argument rules from
// the NGX_CONF_* bits, values from enum/bitmask posts, defaults from merge/init functions where they can be matched.
import { readCSource } from './c-tables.mjs';
import { formatDefault } from './defaults.mjs';

/** Context bits per module type (the cf->module_type the reader compares): bit -> context name. */
const CONTEXT_BITS = {
  NGX_CORE_MODULE: { 0x01000000: 'main' },
  NGX_EVENT_MODULE: { 0x02000000: 'events' },
  NGX_HTTP_MODULE: {
    0x02000000: 'http', 0x04000000: 'server', 0x08000000: 'location', 0x10000000: 'upstream',
    0x20000000: 'if-in-server', 0x40000000: 'if-in-location', 0x80000000: 'limit_except',
  },
  NGX_STREAM_MODULE: { 0x02000000: 'stream', 0x04000000: 'stream-server', 0x08000000: 'stream-upstream' },
  NGX_MAIL_MODULE: { 0x02000000: 'mail', 0x04000000: 'mail-server' },
  NGX_RTMP_MODULE: { 0x02000000: 'rtmp', 0x04000000: 'rtmp-server', 0x08000000: 'rtmp-application', 0x10000000: 'rtmp-recorder' },
};

/** Every context, in the order entries list them; NGX_CONF_MODULE directives (include) are allowed in all. */
export const ALL_CONTEXTS = [...new Set(Object.values(CONTEXT_BITS).flatMap((bits) => Object.values(bits)))];

/** Evaluates `A|B|0x10` with the collected #defines (recursively); undefined when a name is unknown. */
export function evaluateBits(expression, defines, depth = 0) {
  if (depth > 20) return undefined;
  let total = 0;
  for (const raw of expression.replace(/[()\s]/g, '').split('|')) {
    if (raw === '') continue;
    let value;
    if (/^0x[0-9a-fA-F]+$/.test(raw)) value = Number.parseInt(raw, 16);
    else if (/^[0-9]+$/.test(raw)) value = Number.parseInt(raw, 10);
    else if (raw in defines) value = evaluateBits(beforeComment(defines[raw]), defines, depth + 1);
    if (value === undefined) return undefined;
    total = (total | value) >>> 0;
  }
  return total;
}

/** A #define's value without a trailing comment (indexOf: a regex would rescan the rest from every position). */
function beforeComment(text) {
  const comment = text.indexOf('/*');
  return comment === -1 ? text : text.slice(0, comment);
}

/** The argument rule as nginx's ngx_conf_handler applies it: ANY, then FLAG, 1MORE, 2MORE, else the TAKEn bits. */
export function argumentRule(bits) {
  if (bits & 0x400) return 'any';
  if (bits & 0x200) return 'flag';
  if (bits & 0x800) return '1+';
  if (bits & 0x1000) return '2+';
  const counts = [];
  for (let n = 0; n <= 7; n++) if (bits & (1 << n)) counts.push(n);
  return counts.join('|');
}

export function contextsOf(bits, moduleType) {
  if (moduleType === 'NGX_CONF_MODULE') return ['any'];
  const map = CONTEXT_BITS[moduleType];
  if (!map) return [];
  return Object.entries(map)
    .filter(([bit]) => ((bits & Number(bit)) >>> 0) !== 0)
    .map(([, name]) => name);
}

/** Variables tables in files without a module of their own belong to their protocol's core module. */
const CORE_MODULE_OF_FILE = {
  'src/http/ngx_http_variables.c': 'ngx_http_core_module',
  'src/stream/ngx_stream_variables.c': 'ngx_stream_core_module',
};

/**
 * Reads a source tree. `files` maps repository-relative paths to their text; `facts` decides #if branches.
 * `inherited` ({ defines, valueTables }) is what a third-party module sees of the nginx it is compiled against.
 * Returns { directives, variables, modules: { name: { type, file } }, stats, defines, valueTables }.
 */
export function readTree(files, facts, inherited = { defines: {}, valueTables: {} }) {
  const parsed = {};
  const defines = { ...inherited.defines };
  const valueTables = { ...inherited.valueTables };
  const deprecated = {};
  const defaults = new Map();
  for (const [file, text] of Object.entries(files)) {
    const result = readCSource(text, facts);
    parsed[file] = result;
    Object.assign(defines, result.defines);
    Object.assign(valueTables, result.valueTables);
    Object.assign(deprecated, result.deprecated);
    for (const d of result.defaults) {
      const key = `${d.struct}:${d.path}`;
      // The first merge function wins: init_main_conf and merge_*_conf of one struct agree in nginx's sources.
      if (!defaults.has(key)) defaults.set(key, d);
    }
  }
  const customHandlers = new Set(Object.values(parsed).flatMap((p) => [...p.customBodyHandlers]));
  const directives = [];
  const variables = [];
  const modules = {};
  const stats = { commands: 0, withDefault: 0 };
  for (const [file, result] of Object.entries(parsed)) {
    for (const module of result.modules) {
      modules[module.name] = { type: module.type, file };
      // A C++ module (ngx_pagespeed) names its table with its namespace: `net_instaweb::ps_commands`.
      const table = result.commands[module.commands.replace(/^(\w+::)+/, '')];
      if (!table) continue;
      for (const command of table) {
        const bits = evaluateBits(command.type, defines);
        if (bits === undefined) throw new Error(`${file}:${command.line}: cannot read the type of "${command.name}": ${command.type}`);
        const entry = {
          name: command.name,
          module: module.name,
          contexts: contextsOf(bits, module.type),
          args: argumentRule(bits),
        };
        if (bits & 0x100) entry.block = true;
        if (entry.block && customHandlers.has(command.set)) entry.body = 'custom';
        const values = valueTables[command.post];
        if (values && (command.set === 'ngx_conf_set_enum_slot' || command.set === 'ngx_conf_set_bitmask_slot')) {
          entry.values = values.values.map((v) => v.word);
          if (values.kind === 'bitmask') entry.multiple = true;
        } else if (entry.args === 'flag') {
          entry.values = ['on', 'off'];
        }
        const old = deprecated[command.post];
        if (old?.replacement) entry.deprecated = old.replacement;
        if (command.conditions.length > 0) entry.when = command.conditions.join(' && ');
        stats.commands++;
        const found = command.offset && defaults.get(`${command.offset.struct}:${command.offset.path}`);
        const shown = found ? formatDefault(found, command, values, defines) : undefined;
        if (shown !== undefined) {
          entry.default = shown;
          stats.withDefault++;
        }
        directives.push(entry);
      }
    }
    const owner = result.modules.length === 1 ? result.modules[0].name : CORE_MODULE_OF_FILE[file];
    for (const table of result.variables) {
      for (const variable of table.entries) {
        const entry = { name: variable.name, module: owner ?? file, protocol: table.protocol };
        if (variable.prefix) entry.prefix = true;
        if (variable.conditions.length > 0) entry.when = variable.conditions.join(' && ');
        variables.push(entry);
      }
    }
  }
  return { directives: mergeAlternatives(directives), variables: dedupe(variables), modules, stats, defines, valueTables };
}

/**
 * One entry per (module, name): a directive listed twice (under two #if branches kept as undecidable) keeps the
 * first. A module may list a name once per context with the same arguments (ngx_pagespeed: one `pagespeed` entry
 * for http, one for server, one for location), which nginx's reader tries in turn: those join their contexts.
 */
function mergeAlternatives(directives) {
  const seen = new Map();
  for (const d of directives) {
    const key = `${d.module}\0${d.name}`;
    const first = seen.get(key);
    if (!first) seen.set(key, d);
    else if (first.args === d.args && Boolean(first.block) === Boolean(d.block) && d.contexts.some((c) => !first.contexts.includes(c))) {
      first.contexts = ALL_CONTEXTS.filter((c) => first.contexts.includes(c) || d.contexts.includes(c));
    }
  }
  return [...seen.values()];
}

function dedupe(variables) {
  const seen = new Map();
  for (const v of variables) {
    const key = `${v.module}\0${v.name}`;
    if (!seen.has(key)) seen.set(key, v);
  }
  return [...seen.values()];
}

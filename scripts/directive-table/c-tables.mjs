// Extracts what nginx's configuration reader knows from one C source file: the ngx_command_t tables (directives), the
// ngx_module_t definitions (which table belongs to which module, and its type), ngx_conf_enum_t/ngx_conf_bitmask_t
// tables (enum values), ngx_conf_deprecated_t posts, variable tables (ngx_http_variable_t / ngx_stream_variable_t),
// #defines, the defaults set in merge/init functions, and which block handlers read their body themselves.
import {
  blankComments,
  cStringValue,
  matchingClose,
  ngxStringValue,
  resolvePreprocessor,
  splitTopLevel,
  topLevelGroups,
} from './c-text.mjs';

/** Offsets of line starts, for offset -> line lookups by binary search. */
function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

function lineAt(starts, offset) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Every `<type> <name>[] = { ... };` array of the given C type, with its body and start offset. */
function arrays(text, typeName) {
  const found = [];
  const pattern = new RegExp(`\\b${typeName}[ \\t]+(\\w+)[ \\t]*\\[[ \\t]*\\][ \\t]*=[ \\t]*\\{`, 'g');
  for (const m of text.matchAll(pattern)) {
    const open = m.index + m[0].length - 1;
    const close = matchingClose(text, open);
    if (close < 0) continue;
    found.push({ name: m[1], body: text.slice(open + 1, close), bodyOffset: open + 1 });
  }
  return found;
}

function parseCommands(text, starts, conditionsAt) {
  const tables = {};
  for (const table of arrays(text, 'ngx_command_t')) {
    const entries = [];
    for (const group of topLevelGroups(table.body)) {
      const fields = splitTopLevel(group.text);
      const name = ngxStringValue(fields[0] ?? '');
      if (!name) continue; // ngx_null_command spelled out, or something that is not an entry
      const line = lineAt(starts, table.bodyOffset + group.offset);
      const offsetMatch = /^offsetof\s*\(\s*(\w+)\s*,\s*([\w.[\]]+)\s*\)$/.exec(fields[4] ?? '');
      entries.push({
        name,
        type: (fields[1] ?? '').replace(/\s+/g, ''),
        set: fields[2] ?? '',
        conf: fields[3] ?? '',
        offset: offsetMatch ? { struct: offsetMatch[1], path: offsetMatch[2] } : undefined,
        post: (fields[5] ?? '').replace(/^&\s*/, ''),
        conditions: conditionsAt[line] ?? [],
        line: line + 1,
      });
    }
    tables[table.name] = entries;
  }
  return tables;
}

function parseModules(text) {
  const modules = [];
  for (const m of text.matchAll(/\bngx_module_t[ \t]+(\w+)[ \t]*=[ \t]*\{/g)) {
    const open = m.index + m[0].length - 1;
    const close = matchingClose(text, open);
    if (close < 0) continue;
    const fields = splitTopLevel(text.slice(open + 1, close));
    // NGX_MODULE_V1, &ctx, commands, type, ...
    modules.push({ name: m[1], commands: fields[2] ?? 'NULL', type: fields[3] ?? '' });
  }
  return modules;
}

/** ngx_conf_enum_t and ngx_conf_bitmask_t tables: name -> { kind, values: [{ word, value }] }. */
function parseValueTables(text) {
  const tables = {};
  for (const [typeName, kind] of [['ngx_conf_enum_t', 'enum'], ['ngx_conf_bitmask_t', 'bitmask']]) {
    for (const table of arrays(text, typeName)) {
      const values = [];
      for (const group of topLevelGroups(table.body)) {
        const [word, value] = splitTopLevel(group.text);
        const literal = ngxStringValue(word ?? '');
        if (literal) values.push({ word: literal, value: (value ?? '').replace(/\s+/g, '') });
      }
      tables[table.name] = { kind, values };
    }
  }
  return tables;
}

function parseDeprecated(text) {
  const found = {};
  const pattern = /\bngx_conf_deprecated_t[ \t]+(\w+)[ \t]*=[ \t]*\{([^{}]*)\}/g;
  for (const m of text.matchAll(pattern)) {
    const [, oldName, newName] = splitTopLevel(m[2]);
    found[m[1]] = { old: cStringValue(oldName ?? ''), replacement: cStringValue(newName ?? '') };
  }
  return found;
}

function parseVariables(text, starts, conditionsAt) {
  const tables = [];
  for (const [typeName, protocol] of [['ngx_http_variable_t', 'http'], ['ngx_stream_variable_t', 'stream']]) {
    for (const table of arrays(text, typeName)) {
      const entries = [];
      for (const group of topLevelGroups(table.body)) {
        const fields = splitTopLevel(group.text);
        const name = ngxStringValue(fields[0] ?? '');
        if (!name) continue;
        const line = lineAt(starts, table.bodyOffset + group.offset);
        entries.push({ name, prefix: (fields[4] ?? '').includes('_VAR_PREFIX'), conditions: conditionsAt[line] ?? [] });
      }
      tables.push({ name: table.name, protocol, entries });
    }
  }
  return tables;
}

function parseDefines(lines) {
  const defines = {};
  for (const line of lines) {
    const m = /^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(\S.*)$/.exec(line);
    if (m) defines[m[1]] = m[2].trim();
  }
  return defines;
}

/** Function bodies: name -> body text, for definitions written nginx style (name at the start of a line). */
function functionBodies(text) {
  const bodies = {};
  for (const m of text.matchAll(/^(\w+)\(([^()]*)\)[ \t]*\n\{/gm)) {
    const open = m.index + m[0].length - 1;
    const close = matchingClose(text, open);
    if (close > 0) bodies[m[1]] = { params: m[2], body: text.slice(open + 1, close) };
  }
  return bodies;
}

const MERGE_CALL = /\bngx_conf_(merge|init)_(\w+)\s*\(/g;

/**
 * Defaults written in merge/init functions: `ngx_conf_merge_<kind>_value(conf->path, prev->path, default...)` and
 * `ngx_conf_init_<kind>_value(x->path, default)`, keyed by the struct type of `conf`/`x` as declared in the function.
 */
function parseDefaults(bodies) {
  const defaults = [];
  for (const { body } of Object.values(bodies)) {
    if (!body.includes('ngx_conf_merge_') && !body.includes('ngx_conf_init_')) continue;
    const types = {};
    for (const d of body.matchAll(/\b(\w+)[ \t]+\*(\w+)[ \t]*[=;]/g)) if (d[1].endsWith('_t')) types[d[2]] = d[1];
    for (const m of body.matchAll(MERGE_CALL)) {
      // ngx_conf_merge_value, ngx_conf_merge_msec_value, ...: the kind sits between the verb and `value`.
      if (!m[2].endsWith('value')) continue;
      const kind = m[2].slice(0, -'value'.length).replace(/_$/, '') || 'value';
      const open = m.index + m[0].length - 1;
      const close = matchingClose(body, open);
      if (close < 0) continue;
      const args = splitTopLevel(body.slice(open + 1, close));
      const target = /^(\w+)->([\w.[\]]+)$/.exec((args[0] ?? '').replace(/\s+/g, ''));
      if (!target || !types[target[1]]) continue;
      const rest = m[1] === 'merge' ? args.slice(2) : args.slice(1);
      defaults.push({ struct: types[target[1]], path: target[2], kind, args: rest.map((a) => a.replace(/\s+/g, ' ')) });
    }
  }
  return defaults;
}

/** Handlers that install their own line parser (`cf->handler = ...`): their block body holds no directives. */
function customBodyHandlers(bodies) {
  const names = new Set();
  for (const [name, { params, body }] of Object.entries(bodies)) {
    if (params.includes('ngx_command_t') && /\bcf->handler\s*=\s*\w/.test(body)) names.add(name);
  }
  return names;
}

/**
 * Everything one source file contributes. `facts` decides preprocessor branches (see evaluateCondition); entries keep
 * the conditions that were undecidable or name a build option.
 */
export function readCSource(source, facts) {
  const { lines, conditionsAt } = resolvePreprocessor(blankComments(source), facts);
  const text = lines.join('\n');
  const starts = lineStarts(text);
  const bodies = functionBodies(text);
  return {
    modules: parseModules(text),
    commands: parseCommands(text, starts, conditionsAt),
    valueTables: parseValueTables(text),
    deprecated: parseDeprecated(text),
    variables: parseVariables(text, starts, conditionsAt),
    defines: parseDefines(lines),
    defaults: parseDefaults(bodies),
    customBodyHandlers: customBodyHandlers(bodies),
  };
}

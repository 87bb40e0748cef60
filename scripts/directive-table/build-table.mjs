// Joins the per-release snapshots into the committed table: one entry per (module, directive) with its rules at the
// newest release read, `since` (the first release that has it, when 1.22.1 did not), `until` (the first release
// without it) and `changes` (the release where a rule changed and what it was before), plus modules and variables.
import { ALL_CONTEXTS } from './snapshot.mjs';
import { nginxDocsPage } from './links.mjs';

/** The fields whose change between releases is recorded. */
export const TRACKED = ['contexts', 'args', 'block', 'body', 'values', 'multiple', 'default', 'deprecated'];

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const keyOf = (e) => `${e.module}\0${e.name}`;

/**
 * Walks `releases` ([{ version, directives, variables }], oldest first; the first is the base, 1.22.1). Returns
 * entries keyed by module+name with since/until/changes.
 */
export function walkReleases(releases, listName) {
  const entries = new Map();
  const [base, ...later] = releases;
  for (const e of base[listName]) entries.set(keyOf(e), { ...e });
  let present = new Set(entries.keys());
  for (const release of later) {
    const now = new Set();
    for (const e of release[listName]) {
      const key = keyOf(e);
      now.add(key);
      const known = entries.get(key);
      if (!known) {
        entries.set(key, { ...e, since: release.version });
        continue;
      }
      if (known.until) {
        // Removed and then back: the entry's span restarts (no release of nginx has done this so far).
        delete known.until;
        known.since = release.version;
      }
      const was = {};
      for (const field of TRACKED) if (!same(known[field], e[field])) was[field] = known[field] ?? null;
      if (Object.keys(was).length > 0) {
        known.changes = [...(known.changes ?? []), { version: release.version, was }];
        for (const field of TRACKED) {
          if (e[field] === undefined) delete known[field];
          else known[field] = e[field];
        }
      }
      if (e.when !== undefined) known.when = e.when;
      else delete known.when;
    }
    for (const key of present) if (!now.has(key)) entries.get(key).until = release.version;
    present = now;
  }
  return entries;
}

/** An entry's rules as they were at the base release (1.22.1): changes undone newest first; undefined if absent then. */
export function entryAtBase(entry) {
  if (entry.since) return undefined;
  const view = { ...entry };
  for (const change of [...(entry.changes ?? [])].reverse()) {
    for (const [field, value] of Object.entries(change.was)) {
      if (value === null) delete view[field];
      else view[field] = value;
    }
  }
  for (const field of ['since', 'until', 'changes', 'description', 'when']) delete view[field];
  return view;
}

function cleanWhen(when) {
  // `(NGX_HTTP_SSL)` reads better as `NGX_HTTP_SSL`; compound conditions keep their parentheses.
  return when?.split(' && ').map((part) => part.replace(/^\((\w+)\)$/, '$1')).join(' && ');
}

const ORDER = ['name', 'module', 'contexts', 'args', 'block', 'body', 'values', 'multiple', 'default', 'deprecated', 'when', 'since', 'until', 'changes', 'description'];

function ordered(entry) {
  const out = {};
  for (const field of ORDER) if (entry[field] !== undefined) out[field] = entry[field];
  return out;
}

/**
 * The whole table. `core` is the nginx release walk ([{ version, directives, variables, modules }]), `thirdParty`
 * [{ package, version, home, tree }], `debian` module -> 'static'|package, `descriptions` (see descriptions.mjs).
 */
export function buildTable({ core, thirdParty, debian, describe }) {
  const directives = walkReleases(core, 'directives');
  const variables = walkReleases(core, 'variables');
  const modules = {};
  const moduleSpan = walkReleases(
    core.map((r) => ({ version: r.version, modules: Object.keys(r.modules).map((name) => ({ name, module: name })) })),
    'modules',
  );
  for (const [, span] of moduleSpan) {
    const info = { docs: nginxDocsPage(span.name) };
    if (debian[span.name]) info.debian = debian[span.name];
    if (span.since) info.since = span.since;
    if (span.until) info.until = span.until;
    modules[span.name] = info;
  }
  for (const party of thirdParty) {
    for (const name of Object.keys(party.tree.modules)) {
      // A package read from both its sources and its binary (the NDK) keeps the sources' version.
      // Modules outside Debian name no package: no build is known to have them or to lack them.
      const debian = party.outOfTree ? {} : { debian: party.binaryPackages?.[name] ?? party.package };
      modules[name] ??= { docs: party.home, ...debian, package: `${party.package} ${party.version}` };
    }
    for (const e of party.tree.directives) directives.set(keyOf(e), { ...e });
    for (const v of party.tree.variables) variables.set(keyOf(v), { ...v });
  }
  const usedModules = new Set([...directives.values(), ...variables.values()].map((e) => e.module));
  const directiveList = [...directives.values()]
    .map((e) => {
      const description = describe(e);
      return ordered({ ...e, when: cleanWhen(e.when), description });
    })
    .sort((a, b) => (a.name === b.name ? (a.module < b.module ? -1 : 1) : a.name < b.name ? -1 : 1));
  const variableList = [...variables.values()]
    // JSON round trip drops the fields that are undefined, in this fixed order.
    .map((v) => JSON.parse(JSON.stringify({ name: v.name, module: v.module, protocol: v.protocol, prefix: v.prefix, when: cleanWhen(v.when), since: v.since, until: v.until })))
    .sort((a, b) => (a.name === b.name ? (a.module < b.module ? -1 : 1) : a.name < b.name ? -1 : 1));
  const usedModuleInfo = Object.fromEntries(Object.entries(modules).filter(([name]) => usedModules.has(name)).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    oldest: core[0].version,
    newest: core[core.length - 1].version,
    contexts: [...ALL_CONTEXTS, 'any'],
    modules: usedModuleInfo,
    directives: directiveList,
    variables: variableList,
  };
}

/** JSON with one directive, variable or module per line: small, and a regenerated table diffs line by line. */
export function serializeTable(table, header) {
  const lines = ['{', `  "about": ${JSON.stringify(header)},`];
  lines.push(`  "oldest": ${JSON.stringify(table.oldest)},`, `  "newest": ${JSON.stringify(table.newest)},`);
  lines.push(`  "contexts": ${JSON.stringify(table.contexts)},`);
  const block = (name, rows, last) => {
    lines.push(`  "${name}": ${Array.isArray(rows) ? '[' : '{'}`);
    const items = Array.isArray(rows) ? rows.map((r) => `    ${JSON.stringify(r)}`) : Object.entries(rows).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
    lines.push(items.join(',\n'));
    lines.push(`  ${Array.isArray(rows) ? ']' : '}'}${last ? '' : ','}`);
  };
  block('modules', table.modules, false);
  block('directives', table.directives, false);
  block('variables', table.variables, true);
  lines.push('}');
  return lines.join('\n') + '\n';
}

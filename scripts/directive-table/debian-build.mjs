// Which nginx modules Debian 12's build has, and where: read from nginx's own configure scripts (auto/options: the
// defaults and what each --with/--without flag sets; auto/modules: which variable links each module) applied to the
// configure flags of Debian's debian/rules. A module is "static" (in /usr/sbin/nginx), in a libnginx-mod-* package
// (a dynamic .so, loaded with load_module), or absent from Debian's build.

/** auto/options: variable defaults, and flag -> [variable, value]. */
function readOptions(text) {
  const values = {};
  const flags = {};
  // A long flag puts its assignment on the next line: `--with-http_geoip_module=dynamic)` newline `HTTP_GEOIP=DYNAMIC ;;`.
  for (const line of text.replace(/\)[ \t]*\n[ \t]+(?=[A-Z])/g, ') ').split('\n')) {
    const plain = /^([A-Z][A-Z0-9_]*)=(YES|NO)$/.exec(line.trim());
    if (plain && !(plain[1] in values)) values[plain[1]] = plain[2];
    const flag = /^\s*(--with[-_a-z0-9]*(?:=dynamic)?)\)\s+([A-Z][A-Z0-9_]*)=(YES|NO|DYNAMIC)\s*;;/.exec(line);
    if (flag) flags[flag[1]] = [flag[2], flag[3]];
  }
  return { values, flags };
}

/**
 * auto/modules: each `ngx_module_name=...` group with its ngx_module_link and the ngx_module_type in force (HTTP,
 * STREAM, MAIL, CORE...). Multi-line quoted name lists are joined.
 */
function readModuleGroups(text) {
  const groups = [];
  let type = 'CORE';
  let names;
  let link;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const typeMatch = /^ngx_module_type=(\w+)/.exec(line);
    if (typeMatch) type = typeMatch[1];
    if (line.startsWith('ngx_module_name=')) {
      let value = line.slice('ngx_module_name='.length);
      while (value.startsWith('"') && !value.slice(1).includes('"') && i + 1 < lines.length) value += ' ' + lines[++i].trim();
      names = value.replace(/["\\]/g, ' ').split(/\s+/).filter(Boolean);
    }
    const linkMatch = /^ngx_module_link=(\S+)/.exec(line);
    if (linkMatch) link = linkMatch[1];
    // A group ends where auto/module is sourced; name and link may come in either order before it. Groups built from
    // variables (the dynamic stream/mail wrappers, addons) name no module of their own.
    if (line === '. auto/module') {
      if (link && names && names.length > 0 && !names[0].startsWith('$')) groups.push({ names, link, type });
      names = undefined;
    }
  }
  return groups;
}

/** Debian's package for a dynamic module group: ngx_http_image_filter_module.so -> libnginx-mod-http-image-filter. */
function packageOf(soName) {
  return `libnginx-mod-${soName.replace(/^ngx_/, '').replace(/_module$/, '').replace(/_/g, '-')}`;
}

/** Parses debian/rules' configure flags (the bin flavour: basic + bin flags). */
export function debianConfigureFlags(rulesText) {
  return [...rulesText.matchAll(/--with(?:out)?-[a-z0-9_]+(?:=dynamic)?/g)].map((m) => m[0]);
}

/** module name -> 'static' | package name, for every module Debian's build includes. */
export function debianBuild(autoOptions, autoModules, configureFlags) {
  const { values, flags } = readOptions(autoOptions);
  for (const flag of configureFlags) {
    const set = flags[flag];
    if (set) values[set[0]] = set[1];
  }
  const linkValue = (link) => (link.startsWith('$') ? values[link.slice(1)] ?? 'NO' : link);
  const parentOf = { STREAM: values.STREAM, MAIL: values.MAIL, HTTP: 'YES', CORE: 'YES' };
  const result = {};
  // The stream and mail groups are one .so each when dynamic: ngx_stream_module.so holds every stream module linked YES.
  const parentPackage = { STREAM: 'libnginx-mod-stream', MAIL: 'libnginx-mod-mail' };
  for (const group of readModuleGroups(autoModules)) {
    const link = linkValue(group.link);
    if (link === 'NO' || link === 'ADDON' || link === undefined) continue;
    if (group.type in parentOf && parentOf[group.type] === 'NO') continue;
    let where;
    if (link === 'DYNAMIC') where = packageOf(group.names[0]);
    else if (parentOf[group.type] === 'DYNAMIC') where = parentPackage[group.type];
    else where = 'static';
    for (const name of group.names) result[name] ??= where;
  }
  // The event and core modules sit outside auto/modules' groups (always linked on Linux).
  for (const name of ['ngx_core_module', 'ngx_errlog_module', 'ngx_conf_module', 'ngx_events_module', 'ngx_event_core_module', 'ngx_epoll_module', 'ngx_regex_module', 'ngx_openssl_module', 'ngx_thread_pool_module']) {
    result[name] ??= 'static';
  }
  return result;
}

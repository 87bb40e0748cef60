// What a configuration's own statements say about the modules its build loads (the directive rule's "not loaded"
// verdict reads it): the Debian packages its load_module lines name, whether it loads an object the table does not
// know, and whether it includes Debian's modules-enabled/*.conf (whose load_module lines live outside the checked tree).
import { allDirectives, moduleInfo } from '../model/directive-table.js';
import type { Directive } from '../model/types.js';
import { MemoMap } from '../util/memo-map.js';

/** Debian's .so files that hold no directives of their own, or hold a whole protocol's modules. */
const DIRECTIVELESS_OBJECTS = new Set(['ndk_http_module']);

/** Includes that pull in load_module lines: Debian's modules-enabled/*.conf and its kin. */
const MODULE_INCLUDE = /(^|\/)modules(-enabled|-available)?\//;

/** Built when a load_module line is first read: most configurations have none, and every run would pay for it. */
let packagesByObjectMap: Map<string, Set<string>> | undefined;
const packagesByObject = () => (packagesByObjectMap ??= buildPackagesByObject());

function buildPackagesByObject(): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const entry of allDirectives()) {
    const pkg = moduleInfo(entry.module)?.debian;
    if (!pkg || pkg === 'static') continue;
    // ngx_stream_module.so holds every ngx_stream_*_module; other objects are named after their one module.
    const protocol = /^ngx_(stream|mail|rtmp)_/.exec(entry.module);
    for (const object of [entry.module, ...(protocol ? [`ngx_${protocol[1]}_module`] : [])]) {
      const set = map.get(object) ?? new Set<string>();
      set.add(pkg);
      map.set(object, set);
    }
    // A stream module of its own package (njs, geoip) loads only where stream is there already: Debian refuses it
    // before ngx_stream_module.so, so a config loading it alone runs on a build with stream compiled in (nginx.org's
    // packages and images, whose njs objects have the same names).
    const streamPackage = moduleInfo('ngx_stream_core_module')?.debian;
    if (/^ngx_stream_/.test(entry.module) && streamPackage && streamPackage !== pkg) map.get(entry.module)!.add(streamPackage);
  }
  return map;
}

/** What a list of statements (and everything under them) says about the modules the build loads. */
export interface ModuleFacts {
  packages: ReadonlySet<string>;
  unknownModuleLoaded: boolean;
  modulesIncluded: boolean;
}

const NO_MODULE_FACTS: ModuleFacts = { packages: new Set(), unknownModuleLoaded: false, modulesIncluded: false };

// By statement list: an edit in the language server gives new lists to the edited block's ancestors only, so asking
// again after it walks those lists, not the whole file (the model never changes a list it has built).
const moduleFactsByList = new MemoMap<readonly Directive[], ModuleFacts>();

export function moduleFacts(list: readonly Directive[]): ModuleFacts {
  if (list.length === 0) return NO_MODULE_FACTS;
  const known = moduleFactsByList.get(list);
  if (known) return known;
  let packages: Set<string> | undefined;
  let unknownModuleLoaded = false;
  let modulesIncluded = false;
  let blocks = false;
  for (const directive of list) {
    if (directive.name === 'load_module') {
      const arg = directive.args[0];
      const object = arg && !arg.templated ? (arg.value.split('/').pop() ?? '').replace(/\.so$/, '') : '';
      const objectPackages = packagesByObject().get(object);
      if (objectPackages) for (const pkg of objectPackages) (packages ??= new Set()).add(pkg);
      else if (!DIRECTIVELESS_OBJECTS.has(object)) unknownModuleLoaded = true;
    }
    if (directive.name === 'include' && directive.args.some((arg) => arg.templated || MODULE_INCLUDE.test(arg.value))) {
      modulesIncluded = true;
    }
    if (directive.children.length === 0) continue;
    blocks = true;
    const inner = moduleFacts(directive.children);
    if (inner === NO_MODULE_FACTS) continue;
    for (const pkg of inner.packages) (packages ??= new Set()).add(pkg);
    unknownModuleLoaded ||= inner.unknownModuleLoaded;
    modulesIncluded ||= inner.modulesIncluded;
  }
  const found = packages !== undefined || unknownModuleLoaded || modulesIncluded;
  const facts = found ? { packages: packages ?? NO_MODULE_FACTS.packages, unknownModuleLoaded, modulesIncluded } : NO_MODULE_FACTS;
  // A list of simple statements that says nothing is read again as fast as it is looked up: not kept.
  if (blocks || found) moduleFactsByList.set(list, facts);
  return facts;
}

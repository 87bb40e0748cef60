// The build a root is checked against (analysis/directive-checks.ts's CheckEnvironment): the run's target release
// and build, with what the root's own files load (load_module lines), read only when a directive asks.
import type { ConfigFile } from '../model/types.js';
import type { WorkspaceRoot } from '../model/workspace.js';
import type { ResolvedOptions } from '../util/types.js';
import type { CheckEnvironment } from './directive-checks.js';
import { moduleFacts } from './loaded-modules.js';

/**
 * What a root's own files say about the build: the files it reads (itself and its includes), never the rest of the
 * workspace, so a root is judged alike whatever else is checked with it (`--jobs` groups files differently).
 */
export class RootEnvironment implements CheckEnvironment {
  readonly version: readonly number[] | undefined;
  readonly build: string | undefined;
  readonly extra: ReadonlySet<string>;
  // Read when a directive asks (a dynamic module's, an unknown name): most roots never do.
  private facts: RootModules | undefined;

  constructor(
    private readonly root: WorkspaceRoot,
    options: ResolvedOptions,
  ) {
    this.version = options.nginxVersion;
    this.build = options.nginxBuild || undefined;
    this.extra = options.extraDirectives ?? NO_EXTRA;
  }

  private get modules(): RootModules {
    return (this.facts ??= rootModules(this.root));
  }

  get unknownModuleLoaded(): boolean {
    return this.modules.unknownModuleLoaded;
  }

  packageLoaded(pkg: string): boolean {
    return this.modules.packageLoaded(pkg);
  }
}

const NO_EXTRA: ReadonlySet<string> = new Set();

interface RootModules {
  unknownModuleLoaded: boolean;
  packageLoaded: (pkg: string) => boolean;
}

function rootModules(root: WorkspaceRoot): RootModules {
  const loaded = new Set<string>();
  let unknownModuleLoaded = false;
  let modulesIncluded = false;
  const files = new Set<ConfigFile>([root.file]);
  for (const targets of root.includes.values()) for (const target of targets) files.add(target);
  for (const file of files) {
    const facts = moduleFacts(file.directives);
    for (const pkg of facts.packages) loaded.add(pkg);
    unknownModuleLoaded ||= facts.unknownModuleLoaded;
    modulesIncluded ||= facts.modulesIncluded;
  }
  // A module is reported as not loaded only where the config shows it runs on a Debian-style build that loads its
  // modules itself: a main config, load_module lines for Debian's objects and nothing else. Without a main config
  // they are loaded somewhere unseen (Debian: /etc/nginx/modules-enabled/*.conf); without any load_module, or with
  // one of an object Debian does not ship, the build may have its modules compiled in (nginx.org packages link
  // stream statically, docker images build rtmp in).
  const mainSeen = root.context === 'main' && root.basis !== 'unknown';
  const everyPackage = modulesIncluded || !mainSeen || loaded.size === 0 || unknownModuleLoaded;
  return { unknownModuleLoaded, packageLoaded: (pkg) => everyPackage || loaded.has(pkg) };
}

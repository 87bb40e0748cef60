// The options analyze() and fixAll() take: what the adapters resolve from flags, settings files and the editor.
import type { ContextName, ModelCache } from '../model/types.js';
import type { FileHost, PathMapping, SeveritySetting } from '../util/types.js';
import type { NginxTarget } from './nginx-target.js';

export interface AnalyzeOptions {
  /** Target nginx version, e.g. "1.22.1"; undefined means the pre-1.29.7 behaviour. */
  nginxVersion?: string;
  /**
   * Where nginxVersion came from (flag, settings file, a Dockerfile...), for reports and hovers; the rules read only
   * nginxVersion.
   */
  nginxTarget?: NginxTarget;
  /**
   * The top-level context of documents checked on their own, by absolute path (--context, the settings file's
   * "contexts"): a root file without a `# nginx-keepalive: context=` comment of its own takes it, as stated.
   */
  contexts?: Readonly<Record<string, ContextName>>;
  /** Per-rule severity overrides. */
  rules?: Record<string, SeveritySetting>;
  /** Absolute include prefixes mapped onto local directories, e.g. /etc/nginx -> deploy/nginx. */
  pathMap?: PathMapping[];
  /**
   * Absolute files or directories includes may be read from (the paths being checked). Nothing outside them and the
   * pathMap targets is read, globbed or tested; an include leading there is reported, not followed. Defaults to the
   * documents' directories.
   */
  readRoots?: string[];
  /**
   * A distribution's build (model/distribution-builds.ts: "debian-12"): its release is the target version when
   * nginxVersion is not given, and the directives it backported are accepted.
   */
  nginxBuild?: string;
  /** Third-party directive names the `directive` rule accepts anywhere (settings file "directives.extra"). */
  extraDirectives?: readonly string[];
  /** Inserted `keepalive N;` value for fixes. */
  keepaliveConnections?: number;
  /** Included files larger than this many bytes are not read (default 10 MB); only for the default host. */
  maxFileBytes?: number;
  host?: FileHost;
  models?: ModelCache;
}

// Which nginx version a run assumes, and where that came from, so every report can say it: the rules' findings differ
// on either side of 1.29.7, and a reader must be able to tell which side they were computed for.
//
//   chooseNginxTarget(candidates)   the first of: explicit choice (flag / editor), settings file, detection, default
//   describeNginxTarget(target, show)   "nginx 1.30 (Dockerfile:1)", "nginx before 1.29.7 (default)"
//
// The core never reads the disk for this: the CLI and the language server find Dockerfiles and compose files and hand
// the detection in (engine/container-files.ts reads their text).
import type { ImageMention } from './container-files.js';
import { MAINLINE_LINE, newerThanKnownReleases, RELEASES_AS_OF } from './nginx-releases.js';
import { compareVersions, formatVersion, type NginxVersion } from '../analysis/versions.js';
import { TABLE_VERSIONS } from '../model/directive-table.js';

export type NginxTargetSource = 'flag' | 'editor' | 'settings' | 'detected' | 'default';

export interface NginxTarget {
  /** X.Y.Z for analyze(); undefined: the pre-1.29.7 behaviour. */
  version: string | undefined;
  /** "1.30", "1.22.1" or "before 1.29.7". */
  label: string;
  source: NginxTargetSource;
  /** The settings file, Dockerfile or compose file it came from (absolute). */
  file?: string;
  /** 1-based line of the FROM / image: line. */
  line?: number;
  /** The image reference, for a detected version. */
  image?: string;
  /** A container file names nginx but not which version, so the default stands: that file, line and image. */
  undetermined?: { file: string; line: number; image: string; why: string };
}

export const DEFAULT_TARGET_LABEL = 'before 1.29.7';

export interface DetectedImage extends ImageMention {
  file: string;
}

export interface TargetCandidates {
  /** --nginx-version (CLI) or the editor's nginxKeepalive.nginxVersion (language server): an explicit choice. */
  explicit?: { version: string; source: 'flag' | 'editor' };
  settings?: { version: string; file: string };
  detected?: DetectedImage;
}

export function chooseNginxTarget(candidates: TargetCandidates): NginxTarget {
  const { explicit, settings, detected } = candidates;
  if (explicit) return { version: explicit.version, label: explicit.version, source: explicit.source };
  if (settings) return { version: settings.version, label: settings.version, source: 'settings', file: settings.file };
  if (detected?.version.kind === 'version') {
    return {
      version: detected.version.version.join('.'),
      label: detected.version.label,
      source: 'detected',
      file: detected.file,
      line: detected.line,
      image: detected.image,
    };
  }
  const target: NginxTarget = { version: undefined, label: DEFAULT_TARGET_LABEL, source: 'default' };
  if (detected?.version.kind === 'unknown') {
    target.undetermined = { file: detected.file, line: detected.line, image: detected.image, why: detected.version.why };
  }
  return target;
}

const SOURCE_TEXT: Record<'flag' | 'editor', string> = { flag: '--nginx-version', editor: 'nginxKeepalive.nginxVersion setting' };

/** `show` turns an absolute path into what the report prints (relative to the working directory, escaped). */
export function describeNginxTarget(target: NginxTarget, show: (file: string) => string): string {
  return `nginx ${target.label} (${targetOrigin(target, show)})`;
}

export function targetOrigin(target: NginxTarget, show: (file: string) => string): string {
  const notes = [originOnly(target, show)];
  const version = targetVersion(target);
  if (version && newerThanKnownReleases(version)) notes.push(`newer than ${formatVersion(MAINLINE_LINE)}, the newest release known on ${RELEASES_AS_OF}`);
  const table = version && outsideDirectiveTable(version);
  if (table) notes.push(table);
  return notes.join('; ');
}

/** The target as X.Y.Z numbers, when it is one (a label such as "before 1.29.7" is not). */
function targetVersion(target: NginxTarget): NginxVersion | undefined {
  const parts = target.version?.split('.').map(Number);
  if (parts?.length !== 3 || parts.some((part) => !Number.isInteger(part))) return undefined;
  return parts as unknown as NginxVersion;
}

const tableVersion = (text: string): NginxVersion => text.split('.').map(Number) as unknown as NginxVersion;

/**
 * A target outside the releases the directive table was read from: directives are checked as its nearest end has
 * them, so a directive older than 1.22.1 that was removed since, or one added after the newest read, is misjudged.
 * Below, a whole line counts (`nginx:1.22` is read as 1.22.0; a stable line's patches add no directives); above,
 * a mainline patch may add some.
 */
function outsideDirectiveTable(version: NginxVersion): string | undefined {
  const { oldest, newest } = TABLE_VERSIONS;
  const [major, minor] = tableVersion(oldest);
  const line = [major, minor, 0] as unknown as NginxVersion;
  if (compareVersions(version, line) < 0) return `directives are checked as ${oldest} has them, the oldest release the table read`;
  if (compareVersions(version, tableVersion(newest)) > 0) return `directives are checked as ${newest} has them, the newest release the table read`;
  return undefined;
}

function originOnly(target: NginxTarget, show: (file: string) => string): string {
  switch (target.source) {
    case 'flag':
    case 'editor':
      return SOURCE_TEXT[target.source];
    case 'settings':
      return show(target.file!);
    case 'detected':
      return `${show(target.file!)}:${target.line}`;
    case 'default': {
      const undetermined = target.undetermined;
      if (!undetermined) return 'default';
      return `default: ${show(undetermined.file)}:${undetermined.line} ${undetermined.image}, ${undetermined.why}`;
    }
  }
}

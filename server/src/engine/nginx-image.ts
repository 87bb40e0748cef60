// Which nginx a container image reference runs: `nginx:1.27-alpine`, `nginxinc/nginx-unprivileged:stable`,
// `openresty/openresty:1.27.1.2-alpine`, `docker.io/library/nginx@sha256:...`. Pure string scanning (no RegExp that
// could backtrack): the references come from the repository being checked.
//
//   imageVersion(reference)   undefined: not an nginx image; {kind: 'unknown'}: nginx, but the reference does not say
//                             which (a digest alone, an unresolved ${VAR}); {kind: 'version'}: the version it runs
//
// The tag decides, as the official images name them: a numeric tag is that version or release line (`1.27` is the
// newest 1.27.x), `stable*` the stable line, any other tag (`latest`, `mainline`, `alpine`, `perl`, `bookworm`, `1`)
// the mainline line; no tag means `latest`. OpenResty's four-part versions name the nginx core they bundle. What is
// not a tag by Docker's grammar (`[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`: a terminal escape, a space, an empty tag) names
// no version: the default target stands, and the reason says the tag is invalid without repeating it.
import type { NginxVersion } from '../analysis/versions.js';
import {
  LAST_PATCH,
  MAINLINE_LINE,
  OPENRESTY_CORES,
  OPENRESTY_NEWEST_CORE,
  STABLE_LINE,
} from './nginx-releases.js';

export type ImageVersion =
  | {
      kind: 'version';
      version: NginxVersion;
      /** As people say it: "1.30" for a release line, "1.27.3" for a release. */
      label: string;
    }
  | { kind: 'unknown'; why: string };

type Flavour = 'nginx' | 'openresty';

/** Repository paths (registry host removed, lower case) of images whose tags follow nginx's or OpenResty's. */
const REPOSITORIES: Readonly<Record<string, Flavour>> = {
  nginx: 'nginx',
  'library/nginx': 'nginx',
  // Amazon ECR Public's mirror of the official image, and the unprivileged variant's names.
  'nginx/nginx': 'nginx',
  'nginxinc/nginx-unprivileged': 'nginx',
  'nginx/nginx-unprivileged': 'nginx',
  'openresty/openresty': 'openresty',
};

/**
 * A first path component with a dot or a port, or `localhost`, is a registry host (Docker's own rule); so is an
 * unresolved variable there (`${REGISTRY}/nginx:1.27`), which is how private mirrors are written.
 */
function withoutRegistry(name: string): string {
  const slash = name.indexOf('/');
  if (slash === -1) return name;
  const first = name.slice(0, slash);
  const isHost = first.includes('.') || first.includes(':') || first === 'localhost' || first.includes('$');
  return isHost ? name.slice(slash + 1) : name;
}

interface Reference {
  repository: string;
  tag: string | undefined;
  digest: boolean;
}

function splitReference(reference: string): Reference {
  const at = reference.indexOf('@');
  const digest = at !== -1;
  const named = digest ? reference.slice(0, at) : reference;
  // The tag follows the last `:` after the last `/` (a registry port has a `/` after it).
  const colon = named.lastIndexOf(':');
  const hasTag = colon > named.lastIndexOf('/');
  const repository = withoutRegistry(hasTag ? named.slice(0, colon) : named).toLowerCase();
  return { repository, tag: hasTag ? named.slice(colon + 1) : undefined, digest };
}

/** Leading dot-separated numbers of a tag ("1.27.1.2-alpine" -> [1, 27, 1, 2]); undefined when they are not followed
 * by the end or a `-` variant suffix. */
function leadingNumbers(tag: string): number[] | undefined {
  const numbers: number[] = [];
  let i = 0;
  for (;;) {
    let end = i;
    while (end < tag.length && tag.charCodeAt(end) >= 48 && tag.charCodeAt(end) <= 57) end++;
    if (end === i || end - i > 6) return undefined;
    numbers.push(Number(tag.slice(i, end)));
    if (end === tag.length || tag[end] === '-') return numbers;
    if (tag[end] !== '.') return undefined;
    i = end + 1;
  }
}

const lineLabel = (version: NginxVersion) => `${version[0]}.${version[1]}`;

function nginxTagVersion(tag: string): ImageVersion {
  if (tag.startsWith('stable')) return { kind: 'version', version: STABLE_LINE, label: lineLabel(STABLE_LINE) };
  const numbers = leadingNumbers(tag);
  if (numbers === undefined) {
    // A digit first but no version shape (`1.x`): no official tag looks so; do not guess.
    if (tag.charCodeAt(0) >= 48 && tag.charCodeAt(0) <= 57) return { kind: 'unknown', why: `tag "${tag}" names no version` };
    return { kind: 'version', version: MAINLINE_LINE, label: lineLabel(MAINLINE_LINE) };
  }
  const [major = 0, minor, patch] = numbers;
  if (minor === undefined) return { kind: 'version', version: MAINLINE_LINE, label: lineLabel(MAINLINE_LINE) };
  if (patch === undefined) {
    const line = `${major}.${minor}`;
    return { kind: 'version', version: [major, minor, LAST_PATCH[line] ?? 0], label: line };
  }
  return { kind: 'version', version: [major, minor, patch], label: `${major}.${minor}.${patch}` };
}

function openrestyTagVersion(tag: string): ImageVersion {
  const numbers = leadingNumbers(tag);
  let core: NginxVersion | undefined;
  if (numbers === undefined) {
    if (tag.charCodeAt(0) >= 48 && tag.charCodeAt(0) <= 57) return { kind: 'unknown', why: `tag "${tag}" names no version` };
    core = OPENRESTY_NEWEST_CORE;
  } else if (numbers.length >= 3) {
    core = [numbers[0]!, numbers[1]!, numbers[2]!];
  } else if (numbers.length === 2) {
    core = OPENRESTY_CORES[`${numbers[0]}.${numbers[1]}`] ?? [numbers[0]!, numbers[1]!, 0];
  } else {
    core = OPENRESTY_NEWEST_CORE;
  }
  return { kind: 'version', version: core, label: core.join('.') };
}

/** Whether `reference` names an image this module knows, whatever its tag (for `FROM nginx:${TAG}`). */
export function isNginxImage(reference: string): boolean {
  return Object.hasOwn(REPOSITORIES, splitReference(reference.trim()).repository);
}

const isTagCharacter = (code: number, first: boolean): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || (!first && (code === 46 || code === 45));

/** Docker's tag grammar: `[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`. */
export function isImageTag(tag: string): boolean {
  if (tag.length === 0 || tag.length > 128) return false;
  for (let i = 0; i < tag.length; i++) if (!isTagCharacter(tag.charCodeAt(i), i === 0)) return false;
  return true;
}

export function imageVersion(reference: string): ImageVersion | undefined {
  const { repository, tag, digest } = splitReference(reference.trim());
  if (!Object.hasOwn(REPOSITORIES, repository)) return undefined;
  if (tag !== undefined && tag.includes('$')) return { kind: 'unknown', why: 'its tag is a variable with no default' };
  // Not a tag at all (docker refuses the reference): no version is read from it, and it is never quoted back.
  if (tag !== undefined && !isImageTag(tag)) return { kind: 'unknown', why: 'its tag is not a valid image tag' };
  if (tag === undefined && digest) return { kind: 'unknown', why: 'a digest names no version' };
  const effectiveTag = tag ?? 'latest';
  return REPOSITORIES[repository] === 'openresty' ? openrestyTagVersion(effectiveTag) : nginxTagVersion(effectiveTag);
}

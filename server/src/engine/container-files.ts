// Where a repository says which nginx it runs: a Dockerfile's FROM, a compose file's `image:`. Text in, image
// mentions out; reading the files is the adapters' job (engine/version-detect.ts, lsp/settings-store.ts).
//
//   isDockerfileName(name) / isComposeName(name)
//   dockerfileNginxImage(text)   the image of the LAST stage built on an nginx image (through `FROM stage` aliases and
//                                global ARG defaults), or undefined
//   composeNginxImages(text)     every `image:` naming an nginx image
//   oldestImage(mentions)        the one the findings should assume: an unknown version first, else the oldest
//
// Decisions:
// - The last nginx stage, not simply the last stage: a multi-stage build ends with the nginx stage that serves the
//   built files, and a file whose last stage is something else (`--target proxy` builds) still runs its nginx stage.
// - `FROM nginx:${TAG}` takes the default of a global `ARG TAG=1.27` (an ARG before the first FROM, the only ones FROM
//   can use); without a default the version is unknown and the caller falls back to the default target. Compose
//   `${VAR:-default}` takes its default (the tool does not read `.env` or the environment).
// - Several nginx images (compose services, several files): the oldest, since older nginx needs more of what the
//   rules ask for; findings for the newest would hide problems on the oldest.
// - Line-based scanning without RegExps that could backtrack: these files come from the repository being checked.
import { imageVersion, type ImageVersion } from './nginx-image.js';
import { compareVersions } from '../analysis/versions.js';
import { printablePath } from '../util/paths.js';

export interface ImageMention {
  /**
   * The image reference after variable substitution, e.g. `nginx:1.27-alpine`, as reports print it: quoted and
   * escaped (util/paths.ts printablePath) when it holds a control character, which a registry name or an invalid
   * tag may.
   */
  image: string;
  /** 1-based line of the instruction that names it. */
  line: number;
  version: ImageVersion;
}

const COMPOSE_NAMES = new Set(['docker-compose.yml', 'docker-compose.yaml', 'compose.yml', 'compose.yaml']);

/** `Dockerfile`, `Dockerfile.prod`, `nginx.Dockerfile`, `Containerfile` (any case). */
export function isDockerfileName(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    lower === 'dockerfile' ||
    lower === 'containerfile' ||
    lower.startsWith('dockerfile.') ||
    lower.startsWith('containerfile.') ||
    lower.endsWith('.dockerfile')
  );
}

/** `docker-compose.yml`, `compose.yaml`, and overrides such as `docker-compose.prod.yml`. */
export function isComposeName(name: string): boolean {
  const lower = name.toLowerCase();
  if (COMPOSE_NAMES.has(lower)) return true;
  const yaml = lower.endsWith('.yml') || lower.endsWith('.yaml');
  return yaml && (lower.startsWith('docker-compose.') || lower.startsWith('compose.'));
}

const isNameChar = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/** `${NAME}` with Docker's and compose's modifiers (`:-`, `-`, `:+`, `+`); undefined when it cannot be expanded. */
function expandBraced(body: string, lookup: (name: string) => string | undefined): string | undefined {
  let end = 0;
  while (end < body.length && isNameChar(body.charCodeAt(end))) end++;
  const value = lookup(body.slice(0, end));
  const rest = body.slice(end);
  if (rest === '') return value;
  if (rest.startsWith(':-')) return value ? value : rest.slice(2);
  if (rest.startsWith('-')) return value ?? rest.slice(1);
  if (rest.startsWith(':+')) return value ? rest.slice(2) : '';
  if (rest.startsWith('+')) return value !== undefined ? rest.slice(1) : '';
  return undefined;
}

/** Replaces `$NAME` and `${NAME...}`; one that cannot be expanded stays as written (so its `$` marks it unknown). */
export function substituteVariables(text: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf('$', i);
    if (dollar === -1) return out + text.slice(i);
    out += text.slice(i, dollar);
    if (text[dollar + 1] === '$') {
      out += '$';
      i = dollar + 2;
    } else if (text[dollar + 1] === '{') {
      const close = text.indexOf('}', dollar + 2);
      if (close === -1) return out + text.slice(dollar);
      out += expandBraced(text.slice(dollar + 2, close), lookup) ?? text.slice(dollar, close + 1);
      i = close + 1;
    } else {
      let end = dollar + 1;
      while (end < text.length && isNameChar(text.charCodeAt(end))) end++;
      out += end === dollar + 1 ? '$' : (lookup(text.slice(dollar + 1, end)) ?? text.slice(dollar, end));
      i = end;
    }
  }
  return out;
}

function unquote(value: string): string {
  const first = value[0];
  if (value.length >= 2 && (first === '"' || first === "'") && value[value.length - 1] === first) return value.slice(1, -1);
  return value;
}

/** Lines, without their line break (LF or CRLF). */
function lines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** Dockerfile instructions with their continuation lines joined; comment lines (also inside continuations) dropped. */
function instructions(text: string): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  let current = '';
  let start = 0;
  let continuing = false;
  lines(text).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#') || (!continuing && trimmed === '')) return;
    if (!continuing) {
      current = '';
      start = index + 1;
    }
    continuing = trimmed.endsWith('\\');
    current += continuing ? `${trimmed.slice(0, -1)} ` : trimmed;
    if (!continuing) out.push({ text: current, line: start });
  });
  if (continuing) out.push({ text: current, line: start });
  return out;
}

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');

export function dockerfileNginxImage(text: string): ImageMention | undefined {
  const globalArgs = new Map<string, string>();
  /** Stage name (lower case) -> the image it is built on, already resolved through earlier stages. */
  const stages = new Map<string, { image: string; line: number }>();
  let sawFrom = false;
  let found: ImageMention | undefined;
  for (const instruction of instructions(text)) {
    const [keyword = '', ...operands] = words(instruction.text);
    const upper = keyword.toUpperCase();
    if (upper === 'ARG' && !sawFrom) {
      for (const operand of operands) {
        const equals = operand.indexOf('=');
        if (equals > 0) globalArgs.set(operand.slice(0, equals), unquote(operand.slice(equals + 1)));
      }
      continue;
    }
    if (upper !== 'FROM') continue;
    sawFrom = true;
    // `--platform=$BUILDPLATFORM` and any other flag come before the image.
    const [written, as, alias] = operands.filter((operand) => !operand.startsWith('--'));
    if (written === undefined) continue;
    const image = substituteVariables(written, (name) => globalArgs.get(name));
    const base = stages.get(image.toLowerCase()) ?? { image, line: instruction.line };
    if (as?.toLowerCase() === 'as' && alias !== undefined) stages.set(alias.toLowerCase(), base);
    const version = imageVersion(base.image);
    if (version) found = { image: printablePath(base.image), line: base.line, version };
  }
  return found;
}

export function composeNginxImages(text: string): ImageMention[] {
  const found: ImageMention[] = [];
  lines(text).forEach((raw, index) => {
    let value = raw.trim();
    if (value.startsWith('- ')) value = value.slice(2).trim();
    if (!value.startsWith('image:')) return;
    value = value.slice('image:'.length).trim();
    const comment = value.indexOf(' #');
    if (comment !== -1) value = value.slice(0, comment).trim();
    const image = substituteVariables(unquote(value), () => undefined);
    const version = imageVersion(image);
    if (version) found.push({ image: printablePath(image), line: index + 1, version });
  });
  return found;
}

/** Unknown first (it may be any version, so the default target stands), else the oldest; ties keep the first. */
export function oldestImage<T extends { version: ImageVersion }>(mentions: readonly T[]): T | undefined {
  let oldest: T | undefined;
  for (const mention of mentions) {
    if (oldest === undefined) oldest = mention;
    else if (oldest.version.kind === 'unknown') break;
    else if (mention.version.kind === 'unknown' || compareVersions(mention.version.version, oldest.version.version) < 0) {
      oldest = mention;
    }
  }
  return oldest;
}

// Whether to color output, and plain ANSI styling (no dependency: six escape codes do not justify one).

export interface ColorEnvironment {
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
}

export interface ColorFlags {
  color: boolean | undefined;
  noColor: boolean | undefined;
}

/**
 * Flags win over the environment; FORCE_COLOR wins over NO_COLOR (as in Node's own `getColorDepth`), so a CI job that
 * forces color gets it even on a runner image that sets NO_COLOR globally; otherwise color only on a terminal.
 */
export function shouldUseColor(flags: ColorFlags, { env, stdoutIsTTY }: ColorEnvironment): boolean {
  if (flags.noColor) return false;
  if (flags.color) return true;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env['NO_COLOR']) return false;
  return stdoutIsTTY;
}

export type Style = (text: string) => string;

export interface Palette {
  red: Style;
  yellow: Style;
  cyan: Style;
  green: Style;
  dim: Style;
  bold: Style;
  underline: Style;
}

function ansi(open: number, close: number): Style {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

const identity: Style = (text) => text;

export function createPalette(enabled: boolean): Palette {
  if (!enabled) {
    return { red: identity, yellow: identity, cyan: identity, green: identity, dim: identity, bold: identity, underline: identity };
  }
  return {
    red: ansi(31, 39),
    yellow: ansi(33, 39),
    cyan: ansi(36, 39),
    green: ansi(32, 39),
    dim: ansi(2, 22),
    bold: ansi(1, 22),
    underline: ansi(4, 24),
  };
}

// File sizes as people write them in a flag or a settings file: `10M`, `512k`, `1G`, `1048576` (bytes). Units are
// binary (K = 1024), as in nginx's own size syntax (`client_max_body_size 10m`); a trailing `B` is allowed.

/** The default size limit for a checked or included file: far above any hand-written configuration. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** The largest limit accepted: a longer file would not fit in one JavaScript string anyway. */
export const MAX_FILE_BYTES_CEILING = 512 * 1024 * 1024;
/** What parseByteSize accepts, for the settings file's JSON schema. */
export const BYTE_SIZE_PATTERN = '^\\s*\\d+\\s*([kKmMgG][bB]?|[bB])?\\s*$';

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Bytes, or undefined when `text` is not a size from 1 byte to MAX_FILE_BYTES_CEILING. */
export function parseByteSize(text: string): number | undefined {
  // Trimmed first: `\s*` on both sides of optional letters (`/^\s*(\d+)\s*([kmg]?)b?\s*$/`) is quadratic in blanks.
  const match = /^(\d+)\s*([kmg]?)b?$/i.exec(text.trim());
  if (!match) return undefined;
  const bytes = Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
  return Number.isSafeInteger(bytes) && bytes >= 1 && bytes <= MAX_FILE_BYTES_CEILING ? bytes : undefined;
}

/** `10 MB`, `512 KB`, `300 bytes`: for messages. */
export function formatByteSize(bytes: number): string {
  for (const [unit, size] of [['GB', 1024 ** 3], ['MB', 1024 ** 2], ['KB', 1024]] as const) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

// How paths and file-system failures are shown to people.
import path from 'node:path';

/** Relative to the working directory when inside it (short, clickable in terminals); absolute otherwise. */
export function displayPath(absolutePath: string, cwd: string): string {
  const relative = path.relative(cwd, absolutePath);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return absolutePath;
  return relative;
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
};

/** `permission denied` rather than Node's `EACCES: permission denied, open '/abs/path'` (the path is shown already). */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && REASONS[code]) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}

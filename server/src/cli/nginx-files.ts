// Which files a directory walk picks up. Names decide, except for template extensions that Dokku and others also use
// for YAML, TOML and compose files: those are sniffed.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SNIFFED_EXTENSIONS = ['.sigil', '.tmpl'];

export function isNginxFile(filePath: string): boolean {
  const name = path.basename(filePath);
  if (name.endsWith('.conf') || name.endsWith('.nginx') || name.startsWith('nginx.conf')) return true;
  if (SNIFFED_EXTENSIONS.some((extension) => name.endsWith(extension))) return looksLikeNginxFile(filePath);
  return false;
}

function looksLikeNginxFile(filePath: string): boolean {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch {
    // Keep it: reading it again later reports the problem with its path instead of silently dropping the file.
    return true;
  }
  return looksLikeNginx(text);
}

/**
 * One line shaped like an nginx statement is enough (Dokku's hsts.conf.sigil is a single `add_header ...;`):
 * a lower-case directive name, white space, arguments, then `;`, `{` or `}` at the end of the line. The white space
 * right after the name rules out YAML (`key: value`) and TOML (`key = value`); leading and trailing template actions
 * (`{{ if $.X }}listen 443;{{ end }}`) are allowed.
 */
const NGINX_STATEMENT_LINE =
  /^[ \t]*(?:\{\{.*?\}\}[ \t]*)*[a-z_][a-z0-9_]*(?:[ \t]+[^\s=:][^\n]*)?[ \t]*[;{}][ \t]*(?:\{\{.*?\}\}[ \t]*)*(?:#.*)?$/m;

export function looksLikeNginx(text: string): boolean {
  return NGINX_STATEMENT_LINE.test(text);
}

// Typed loader of test/corpus/MANIFEST.tsv, and the classifiers the corpus tests use to pick their files.
// The manifest is TSV where a field may be wrapped in double quotes, with `""` standing for one quote inside it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const MANIFEST_PATH = path.join(CORPUS_DIR, 'MANIFEST.tsv');

export const COLUMNS = [
  'file', 'kind', 'repo', 'path', 'commit', 'source', 'license', 'license_class', 'redistribution', 'templating',
  'bytes', 'sha256', 'dup_of', 'has_upstream', 'upstream_blocks', 'upstream_no_keepalive', 'keepalive_directives',
  'http_connection_hdr', 'map_http_upgrade', 'nginx_t', 'nginx_t_context', 'nginx_t_stubs', 'nginx_t_1_31_core',
  'valid_in_either',
] as const;

export type Column = (typeof COLUMNS)[number];

export type CorpusEntry = Record<Column, string> & {
  /** Absolute path of the file inside test/corpus. */
  absPath: string;
};

/** Parses TSV text into rows of fields; quoted fields may hold tabs, newlines and `""` escapes. */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let value = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) throw new Error(`unterminated quoted field starting near offset ${i}`);
        value += text.slice(i, q);
        if (text[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      let end = i;
      while (end < n && text[end] !== '\t' && text[end] !== '\n' && text[end] !== '\r') end++;
      value = text.slice(i, end);
      i = end;
    }
    row.push(value);
    if (i >= n) break;
    if (text[i] === '\t') {
      i++;
      // A tab at the very end of a line still opens an (empty) last field.
      if (i >= n || text[i] === '\n' || text[i] === '\r') row.push('');
      else continue;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') {
      i++;
      rows.push(row);
      row = [];
    } else if (i < n && text[i] !== '\n') {
      throw new Error(`unexpected ${JSON.stringify(text[i])} after a quoted field at offset ${i}`);
    }
  }
  if (row.length > 0) rows.push(row);
  return rows;
}

export function loadManifest(file: string = MANIFEST_PATH): CorpusEntry[] {
  const [header, ...rows] = parseTsv(readFileSync(file, 'utf8'));
  if (!header) throw new Error(`${file} is empty`);
  const missing = COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) throw new Error(`${file} lacks columns: ${missing.join(', ')}`);
  return rows.map((fields, index) => {
    if (fields.length !== header.length) {
      throw new Error(`${file} row ${index + 2}: ${fields.length} fields, header has ${header.length}`);
    }
    const entry = { absPath: '' } as CorpusEntry;
    header.forEach((name, k) => {
      (entry as Record<string, string>)[name] = fields[k]!;
    });
    entry.absPath = path.join(path.dirname(file), entry.file);
    return entry;
  });
}

export const entries: CorpusEntry[] = loadManifest();

/** kubernetes/ingress-nginx's main template: a Go template the grammar must read without syntax errors. */
function isIngressNginxTemplate(e: CorpusEntry): boolean {
  return e.kind === 'templated' && e.repo === 'kubernetes/ingress-nginx' && e.path.endsWith('/nginx.tmpl');
}

/** Files that are valid nginx (real nginx -t passed) or templates our grammar must read: no syntax findings. */
export function mustParseClean(e: CorpusEntry): boolean {
  return (
    e.nginx_t === 'ok' || e.valid_in_either === 'ok' || e.kind === 'sigil' || e.kind === 'jinja' || isIngressNginxTemplate(e)
  );
}

// nginx's tokenizer and block-structure errors (ngx_conf_file.c): the messages a syntax finding corresponds to.
const SYNTAX_ERROR = /unexpected|unterminated|missing|has no opening|unexpected end of file/;

/** Files where real nginx -t failed on a tokenizer/syntax error inside the file itself (not in a stubbed include). */
export function isSyntaxInvalid(e: CorpusEntry): boolean {
  if (!e.nginx_t.startsWith('fail:')) return false;
  const message = e.nginx_t.slice('fail:'.length);
  return SYNTAX_ERROR.test(message) && /\bin <file>:\d+/.test(message);
}

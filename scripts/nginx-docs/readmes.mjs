// Reads third-party modules' directive references out of their READMEs (the orig tarballs Debian ships, the same
// the directive table reads): a heading that is the directive's name, then syntax/default/context lines and a first
// paragraph. The OpenResty modules write `**syntax:** *...*`, brotli `- **syntax**: \`...\``, fancyindex `:Syntax:`,
// dav-ext `*Syntax:*`, subs-filter `syntax: *...*`. Line by line; no regular expression sees more than one line.

const FIELD = /^(?:-[ \t]*)?(?:\*\*|\*|:)?(syntax|default|context)(?:\*\*|\*|:)?:?(?:\*\*|\*)?(.*)/i;
const UNDERLINE = /^[ \t]*(?:-{3,}|~{3,}|={3,}|\^{3,})[ \t]*$/;

/** `[set_by_lua_file](#set_by_lua_file)` → `set_by_lua_file`, by indexOf (one pass, no backtracking). */
function withoutLinks(text) {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('](', from); at !== -1; at = text.indexOf('](', from)) {
    const open = text.lastIndexOf('[', at);
    const close = text.indexOf(')', at + 2);
    if (open < from || close === -1) {
      out += text.slice(from, at + 2);
      from = at + 2;
      continue;
    }
    out += text.slice(from, open) + text.slice(open + 1, at);
    from = close + 1;
  }
  return out + text.slice(from);
}

export function unmark(text) {
  return withoutLinks(text)
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/``/g, '`')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text without the backquotes and asterisks around it, by one scan from each end. */
function trimMarks(text) {
  const mark = (ch) => ch === '`' || ch === '*';
  let start = 0;
  let end = text.length;
  while (start < end && mark(text[start])) start++;
  while (end > start && mark(text[end - 1])) end--;
  return text.slice(start, end);
}

/** `*more_set_headers [-t ...]*` → `more_set_headers [-t ...]`. */
function fieldValue(text) {
  let value = trimMarks(unmark(text)).trim();
  if (value.startsWith('*') || value.endsWith('*')) value = value.replace(/\*/g, '');
  return value;
}

function headingName(line) {
  const text = line.replace(/^#{1,6}\s*/, '').replace(/`/g, '').trim();
  return /^[a-z][a-z0-9_]*$/.test(text) ? text : undefined;
}

const MAX_DESCRIPTION = 280;

export function shorten(text) {
  if (text.length <= MAX_DESCRIPTION) return text;
  let cut = -1;
  for (let i = text.indexOf('. '); i !== -1 && i < MAX_DESCRIPTION; i = text.indexOf('. ', i + 1)) cut = i;
  return cut === -1 ? `${text.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…` : text.slice(0, cut + 1);
}

/** The entry of `name` in the README's lines, starting at its heading `at`. */
function entryAt(lines, at, name) {
  const entry = { syntax: [], default: [], context: [], text: '' };
  let i = at + 1;
  const limit = Math.min(lines.length, at + 60);
  let paragraph = [];
  let inFence = false;
  for (; i < limit; i++) {
    const line = lines[i];
    if (line.trim().startsWith('```')) {
      inFence = !inFence;
      if (paragraph.length > 0) break;
      continue;
    }
    if (inFence || UNDERLINE.test(line) || line.trim().startsWith('=====')) continue;
    if (i > at + 2 && (headingName(lines[i]) !== undefined && UNDERLINE.test(lines[i + 1] ?? ''))) break;
    if (/^#{1,6}\s/.test(line)) break;
    const stripped = line.trimStart();
    const field = FIELD.exec((stripped.startsWith('|') ? stripped.slice(1) : stripped).trimStart());
    if (field && paragraph.length === 0) {
      const value = fieldValue(field[2]);
      const key = field[1].toLowerCase();
      if (key === 'syntax' && value) entry.syntax.push(value.endsWith(';') || value.endsWith('}') ? value : `${value};`);
      else if (key === 'default' && value && !/^(?:no|none|-)$/i.test(value)) entry.default.push(value.startsWith(`${name} `) ? value.slice(name.length + 1) : value);
      else if (key === 'context' && value) entry.context = entry.context.concat(value.split(',').map((c) => c.replace(/[`*]/g, '').trim()).filter(Boolean));
      continue;
    }
    const trimmed = line.trim();
    if (/^:?(?:phase|description)\b/i.test(trimmed.replace(/^[*: \t-]+/, ''))) {
      const rest = trimmed.replace(/^[*:-]*[ \t]*(?:phase|description)[*: \t]*/i, '');
      if (/^:?description/i.test(trimmed) && rest) paragraph.push(rest);
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('[Back to TOC]')) {
      if (paragraph.length > 0) break;
      continue;
    }
    if (entry.syntax.length === 0 && paragraph.length === 0 && !trimmed.includes(' ')) continue;
    paragraph.push(trimmed);
  }
  entry.text = shorten(unmark(paragraph.join(' ')));
  if (entry.default.length === 0) delete entry.default;
  return entry;
}

/**
 * The directives documented in `readme` (those of `names` when given; else every heading with a syntax line):
 * `{ name: { syntax, default, context, text } }`.
 */
export function readReadme(readme, names) {
  const lines = readme.split('\n');
  const wanted = names ? new Set(names) : undefined;
  const found = {};
  for (let i = 0; i < lines.length; i++) {
    const name = headingName(lines[i]);
    if (!name || (wanted && !wanted.has(name)) || Object.hasOwn(found, name)) continue;
    // A heading is a line alone: underlined, a Markdown `#` heading, or followed by its syntax line.
    const next = lines.slice(i + 1, i + 4).join('\n');
    if (!UNDERLINE.test(lines[i + 1] ?? '') && !/^#{1,6}\s/.test(lines[i]) && !/syntax/i.test(next)) continue;
    const entry = entryAt(lines, i, name);
    if (wanted ? entry.text || entry.syntax.length > 0 : entry.syntax.length > 0) found[name] = entry;
  }
  return found;
}

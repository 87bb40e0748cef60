// Reads the directive reference out of nginx.org's documentation source (github:nginx/nginx.org, xml/en/docs/**.xml,
// BSD-2-Clause): for each <directive>, its syntax lines, defaults, contexts, <appeared-in>, the first paragraph, and
// the parameters it names (the syntax line's literals and the <tag-name>s of its parameter lists) with the version
// each appeared in when the text says so. Scans with indexOf only: no regular expression runs over a whole page.

const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', laquo: '«', raquo: '»', hellip: '…' };

function decode(text) {
  return text.replace(/&(#?\w{1,8});/g, (whole, name) => {
    if (name.startsWith('#')) {
      const code = name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isInteger(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}

/** Where the element opened before `from` closes, past any nested element of the same tag (a <list> in a <list>). */
function closingOf(text, open, close, from) {
  let depth = 1;
  let at = from;
  for (;;) {
    const nextClose = text.indexOf(close, at);
    if (nextClose === -1) return -1;
    const nextOpen = text.indexOf(open, at);
    if (nextOpen !== -1 && nextOpen < nextClose && /[\s>]/.test(text[nextOpen + open.length] ?? '')) {
      depth++;
      at = nextOpen + open.length;
      continue;
    }
    depth--;
    if (depth === 0) return nextClose;
    at = nextClose + close.length;
  }
}

/** Every `<tag ...>body</tag>` at the top level of `text`. */
export function elements(text, tag) {
  const found = [];
  const open = `<${tag}`;
  const close = `</${tag}>`;
  let at = text.indexOf(open);
  while (at !== -1) {
    const after = text[at + open.length];
    if (after !== '>' && after !== ' ' && after !== '\n' && after !== '/') {
      at = text.indexOf(open, at + 1);
      continue;
    }
    const headEnd = text.indexOf('>', at);
    if (headEnd === -1) break;
    const head = text.slice(at + open.length, headEnd);
    if (head.endsWith('/')) {
      found.push({ head, body: '', start: at, end: headEnd + 1 });
      at = text.indexOf(open, headEnd);
      continue;
    }
    const end = closingOf(text, open, close, headEnd);
    if (end === -1) break;
    found.push({ head, body: text.slice(headEnd + 1, end), start: at, end: end + close.length });
    at = text.indexOf(open, end);
  }
  return found;
}

function attribute(head, name) {
  const key = `${name}="`;
  const at = head.indexOf(key);
  if (at === -1) return undefined;
  return head.slice(at + key.length, head.indexOf('"', at + key.length));
}

function squash(text) {
  return text.replace(/\s+/g, ' ').trim();
}

/** The markup of one tag name replaced by `render(body, head)`. */
function replaceTag(text, tag, render) {
  let out = '';
  let from = 0;
  for (const el of elements(text, tag)) {
    out += text.slice(from, el.start) + render(el.body, el.head);
    from = el.end;
  }
  return out + text.slice(from);
}

/** Markup stripped, <literal>/<var>/<value>... kept as plain words: a syntax line or a default as nginx.org shows it. */
export function plainText(xml) {
  return squash(decode(xml.replace(/<[^<>]*>/g, '')));
}

/** A paragraph as Markdown: literals and variables in code spans, values in italics, links as their text. */
export function paragraphMarkdown(xml) {
  let text = xml;
  // The text before an example: what follows it refers to the example nginx.org shows there.
  const example = text.indexOf('<example');
  if (example !== -1) text = text.slice(0, example);
  // A note is an aside, unless it is all the paragraph says ("This directive is obsolete since 1.19.7...").
  const withoutNotes = replaceTag(replaceTag(text, 'note', () => ' '), 'list', () => ' ');
  text = plainText(withoutNotes) === '' ? replaceTag(text, 'list', () => ' ') : withoutNotes;
  text = replaceTag(text, 'literal', (body) => `\`${plainText(body)}\``);
  text = replaceTag(text, 'var', (body) => `\`${plainText(body)}\``);
  text = replaceTag(text, 'path', (body) => `\`${plainText(body)}\``);
  text = replaceTag(text, 'value', (body) => `*${plainText(body)}*`);
  text = replaceTag(text, 'header', (body) => `“${plainText(body)}”`);
  // `<link id="keepalive_timeout"/>` is written as the directive's name.
  text = text.replace(/<link ([^<>]*)\/>/g, (whole, attributes) => {
    const id = attribute(attributes, 'id');
    return id ? `\`${id}\`` : '';
  });
  text = text.replace(/<http-status code="(\d{3})" text="([^"]*)"\/>/g, '“$1 $2”');
  const plain = plainText(text);
  if (example === -1 || plain.endsWith('.')) return plain;
  // "Sets names of a virtual server, for example:" reads as a sentence without its example; "Sets the root directory.
  // For example, with the following configuration" loses its unfinished last sentence.
  const lastStop = plain.lastIndexOf('. ');
  if (lastStop !== -1) return plain.slice(0, lastStop + 1);
  const comma = plain.lastIndexOf(', ');
  return comma !== -1 ? `${plain.slice(0, comma)}.` : plain.replace(/:$/, '.');
}

const MAX_DESCRIPTION = 280;

/** The first sentences of a paragraph, up to MAX_DESCRIPTION characters, ending at a sentence's end. */
export function firstSentences(markdown) {
  if (markdown.length <= MAX_DESCRIPTION) return markdown;
  let cut = -1;
  for (let i = markdown.indexOf('. '); i !== -1 && i < MAX_DESCRIPTION; i = markdown.indexOf('. ', i + 1)) cut = i;
  return cut === -1 ? `${markdown.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…` : markdown.slice(0, cut + 1);
}

const VERSION = /\((\d+\.\d+\.\d+)\)/;
const PRIOR = /prior to version (\d+\.\d+\.\d+), this parameter was available (?:only )?as part of our/i;

/** The word a parameter is typed as: `weight=` for `weight=number`, `default_server` for a lone literal. */
function parameterWord(tagName) {
  const trimmed = tagName.trim();
  if (!trimmed.startsWith('<literal>')) return undefined;
  const close = trimmed.indexOf('</literal>');
  const word = plainText(trimmed.slice('<literal>'.length, close));
  if (!/^[a-z][a-z0-9_]*$/.test(word)) return undefined;
  return trimmed[close + '</literal>'.length] === '=' ? `${word}=` : word;
}

/** The version a parameter's text names for it; `commercial` when the text says only the subscription has it. */
function parameterVersion(desc) {
  const prior = PRIOR.exec(squash(desc));
  if (prior) return { since: prior[1] };
  if (desc.includes('<commercial_version>')) return { commercial: true };
  const found = VERSION.exec(plainText(desc.slice(0, 600)));
  return found ? { since: found[1] } : {};
}

/** The literals of the syntax lines that are words of their own (`[local]`, `default_server`, `setfib=`). */
function syntaxWords(syntaxXml) {
  const words = [];
  for (const el of elements(syntaxXml, 'literal')) {
    const word = plainText(el.body);
    if (!/^[a-z][a-z0-9_]*$/.test(word)) continue;
    // `on` of `ipv6only=on|off` is a value of a parameter, not a parameter.
    const before = syntaxXml.slice(Math.max(0, el.start - 80), el.start);
    const segment = before.slice(Math.max(before.lastIndexOf(' '), before.lastIndexOf('\n'), before.lastIndexOf('[')) + 1);
    if (segment.includes('=')) continue;
    const next = syntaxXml[el.end];
    words.push(next === '=' ? `${word}=` : word);
  }
  return words;
}

/** `The <literal>ssl</literal> parameter (0.7.14)` anywhere in the directive's text. */
function prosedVersions(bodyXml) {
  const versions = new Map();
  const text = bodyXml.replace(/\s+/g, ' ');
  const marker = '</literal> parameter (';
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
    const open = text.lastIndexOf('<literal>', at);
    const word = open === -1 ? '' : text.slice(open + '<literal>'.length, at);
    const version = VERSION.exec(text.slice(at + marker.length - 1, at + marker.length + 12));
    if (version && /^[a-z][a-z0-9_]*$/.test(word) && !versions.has(word)) versions.set(word, version[1]);
  }
  return versions;
}

function parameters(syntaxXml, bodyXml) {
  const params = {};
  const prosed = prosedVersions(bodyXml);
  for (const word of syntaxWords(syntaxXml)) params[word] = prosed.get(word.replace(/=$/, '')) ?? '';
  for (const list of elements(bodyXml, 'list')) {
    // "Additionally, the following parameters are available as part of our commercial subscription:"
    const before = bodyXml.slice(Math.max(0, list.start - 400), list.start);
    const lead = before.slice(Math.max(before.lastIndexOf('</list>'), before.lastIndexOf('</para>'), before.lastIndexOf('<para>')));
    const commercialList = lead.includes('<commercial_version>');
    const names = elements(list.body, 'tag-name');
    const descs = elements(list.body, 'tag-desc');
    names.forEach((name, i) => {
      const word = parameterWord(name.body);
      if (!word) return;
      const { since, commercial } = parameterVersion(descs[i]?.body ?? '');
      if (commercial || (commercialList && !since)) {
        delete params[word];
        return;
      }
      params[word] = since ?? params[word] ?? prosed.get(word.replace(/=$/, '')) ?? '';
    });
  }
  return params;
}

/** The first paragraph that says something; one that is only a list of values (`starttls`) is read as the list. */
function description(paras) {
  for (const para of paras) {
    const text = paragraphMarkdown(para);
    if (text !== '') return text;
  }
  const list = paras[0] === undefined ? undefined : elements(paras[0], 'list')[0];
  if (!list) return '';
  const names = elements(list.body, 'tag-name');
  const descs = elements(list.body, 'tag-desc');
  return names.map((name, i) => `${paragraphMarkdown(name.body)}: ${paragraphMarkdown(descs[i]?.body ?? '').replace(/[;.]$/, '')}`).join('; ') + '.';
}

/** The directives of one page: `{ name: { syntax, default, context, since?, text, params } }`. */
export function readPage(xml) {
  const directives = {};
  for (const el of elements(xml, 'directive')) {
    const name = attribute(el.head, 'name');
    if (!name) continue;
    const syntaxes = elements(el.body, 'syntax');
    const syntax = syntaxes.map((s) => {
      const line = plainText(s.body);
      return `${name}${line ? ` ${line}` : ''}${attribute(s.head, 'block') === 'yes' ? ' { ... }' : ';'}`;
    });
    const defaults = elements(el.body, 'default').map((d) => plainText(d.body)).filter((d) => d !== '');
    const contexts = elements(el.body, 'context').map((c) => plainText(c.body));
    const since = elements(el.body, 'appeared-in').map((a) => plainText(a.body))[0];
    const paras = elements(el.body, 'para');
    const entry = { syntax };
    if (defaults.length > 0) entry.default = defaults;
    entry.context = contexts;
    if (since) entry.since = since;
    entry.text = firstSentences(description(paras.map((para) => para.body)));
    const params = parameters(syntaxes.map((s) => s.body).join(' '), el.body);
    if (Object.keys(params).length > 0) entry.params = params;
    directives[name] = entry;
  }
  return directives;
}

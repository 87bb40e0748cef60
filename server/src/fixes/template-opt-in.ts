// Turns a template's opt-in keepalive into a default-on one, in the template's own language. Dokku's sigil writes
//
//   {{ if $.PROXY_KEEPALIVE }}  keepalive {{ $.PROXY_KEEPALIVE }};{{ end }}
//
// which renders no keepalive unless someone runs `dokku nginx:set <app> proxy-keepalive N`. The fix makes it
//
//   keepalive {{ $.PROXY_KEEPALIVE | default "16" }};
//
// (the `{{ if }}` and `{{ end }}` actions removed, with their lines when they stand alone on them): the user's value
// still wins, and an unset or empty one renders the default. `default` is sigil's builtin (`Default(value, in)`:
// `in` unless nil or the zero value), not Go text/template's: Go has no such builtin, and other Go-template
// renderers (ingress-nginx, docker-gen) have their own function sets. So for Go this applies to `.sigil` files only.
//
// A Jinja template (Ansible, Salt) says the same as
//
//   {% if nginx_keepalive %}keepalive {{ nginx_keepalive }};{% endif %}
//
// and becomes `keepalive {{ nginx_keepalive | default(16, true) }};`: Jinja's builtin `default` filter, whose second
// argument makes it apply to empty and false values too, as the `{% if %}` did (not only to undefined ones).
//
//   defaultOnEdits(keepalive, container, count)   the edits, or undefined when the shape is not exactly the opt-in:
//     - the file is a `.sigil`, or a Jinja template whose guard is a Jinja `{% if %}`;
//     - one template guard within `container` (the upstream block): an `{{ if P }}` with no `{{ else }}`, holding
//       nothing but the keepalive directive;
//     - the count is the guard's own pipeline, `{{ P }}`, and P is a plain field or variable (`$.X`, `.X`, `$x`; in
//       Jinja a name or dotted name, `nginx_keepalive`, `item.keepalive`).
//   Anything else (an if/else, `{{ if gt $.N 0 }}`, a literal count) is left to its author: a guard around a
//   literal may be a deliberate switch, and rewriting it would silently turn a choice around.
import { lineEndOf, lineStartOf } from './edits.js';
import { normaliseTemplateText } from '../analysis/template-text.js';
import type { TextEdit } from '../util/types.js';
import type { ConfigFile, Directive, TemplateControl } from '../model/types.js';
import { enclosingGuardsWithin, templateBlockOf } from '../analysis/template-blocks.js';

const PLAIN_OPERAND = /^\$?(\.[A-Za-z_][A-Za-z0-9_]*)+$|^\$[A-Za-z_][A-Za-z0-9_]*$/;
const JINJA_PLAIN_OPERAND = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const JINJA_WORDS: ReadonlySet<string> = new Set(['true', 'false', 'none', 'True', 'False', 'None', 'not']);

function isPlainOperand(control: TemplateControl, pipeline: string): boolean {
  if (control.dialect !== 'jinja') return PLAIN_OPERAND.test(pipeline);
  return JINJA_PLAIN_OPERAND.test(pipeline) && !JINJA_WORDS.has(pipeline);
}

/** The setting a guard tests, as users name it (`PROXY_KEEPALIVE` for `$.PROXY_KEEPALIVE`); undefined for others. */
export function settingName(control: TemplateControl): string | undefined {
  const pipeline = control.pipeline.trim();
  if (control.dialect === 'jinja') return isPlainOperand(control, pipeline) ? pipeline : undefined;
  return /^\$?\.[A-Za-z_][A-Za-z0-9_]*$/.test(pipeline) ? pipeline.replace(/^\$?\./, '') : undefined;
}

/** The guard's value with a default, in the template's language. */
export function defaultOnText(control: TemplateControl, count: number): string {
  const pipeline = control.pipeline.trim();
  return control.dialect === 'jinja' ? `{{ ${pipeline} | default(${count}, true) }}` : `{{ ${pipeline} | default "${count}" }}`;
}

/** The action removed; its whole line (with the line break) when nothing else is written on that line. */
function removeAction(file: ConfigFile, control: TemplateControl): TextEdit {
  const text = file.text;
  const { startOffset, endOffset } = control.span;
  const lineStart = lineStartOf(text, startOffset);
  const lineEnd = lineEndOf(text, endOffset);
  const alone = text.slice(lineStart, startOffset).trim() === '' && text.slice(endOffset, lineEnd).trim() === '';
  if (!alone) return { file: file.path, startOffset, endOffset, newText: '' };
  const eol = text.startsWith('\r\n', lineEnd) ? 2 : text[lineEnd] === '\n' ? 1 : 0;
  return { file: file.path, startOffset: lineStart, endOffset: lineEnd + eol, newText: '' };
}

export function defaultOnEdits(keepalive: Directive, container: Directive, count: number): TextEdit[] | undefined {
  const file = keepalive.file;
  const guards = enclosingGuardsWithin(keepalive, container);
  const guard = guards[0];
  if (guards.length !== 1 || !guard || guard.control.keyword !== 'if' || guard.inElse) return undefined;
  const jinja = guard.control.dialect === 'jinja';
  if (jinja ? file.templateDialect !== 'jinja' : !file.path.endsWith('.sigil')) return undefined;
  const block = templateBlockOf(file, guard.control);
  if (!block || block.branches.length > 0) return undefined;
  const text = file.text;
  const onlyKeepalive =
    text.slice(guard.control.span.endOffset, keepalive.span.startOffset).trim() === '' &&
    text.slice(keepalive.span.endOffset, block.end.span.startOffset).trim() === '';
  const pipeline = guard.control.pipeline.trim();
  const argument = keepalive.args[0];
  if (!onlyKeepalive || !isPlainOperand(guard.control, pipeline) || keepalive.args.length !== 1 || !argument) return undefined;
  if (normaliseTemplateText(argument.raw) !== `{{ ${pipeline} }}`) return undefined;
  return [
    removeAction(file, guard.control),
    { file: file.path, ...spanOf(argument.span), newText: defaultOnText(guard.control, count) },
    removeAction(file, block.end),
  ];
}

function spanOf(span: { startOffset: number; endOffset: number }): { startOffset: number; endOffset: number } {
  return { startOffset: span.startOffset, endOffset: span.endOffset };
}

// `lone-carriage-return`: a CR not followed by LF inside a `#` comment, with text after it on the comment's line.
// Only LF ends a comment for nginx (ngx_conf_read_token), so that text is comment too, and the model reads it so; an
// editor, though, shows the lone CR as a line break (the LSP counts it as one), and the text as a line of its own:
// `server a:1; # primary` CR `keepalive 16;` looks like a keepalive nginx never reads. Reported so it is seen.
import type { Rule, RuleState } from '../analysis/rule-api.js';
import { LineIndex } from '../model/line-index.js';
import { nginxComments } from '../model/nginx-tokens.js';
import type { ConfigFile, Directive } from '../model/types.js';

interface LoneCarriageReturnState extends RuleState {
  /** The comment text after the CR, up to the comment's end, trimmed. */
  hidden: string;
}

/** Hidden text is quoted up to this many characters, so the headline stays under 100. */
const MAX_HIDDEN_SHOWN = 28;

const CR = '\r';

function statesOf(file: ConfigFile, from = 0, to = file.text.length): LoneCarriageReturnState[] {
  const text = file.text;
  if (!text.includes(CR)) return [];
  let lines: LineIndex | undefined;
  const states: LoneCarriageReturnState[] = [];
  for (const comment of nginxComments(text)) {
    if (comment.end <= from || comment.start >= to) continue;
    // The first lone CR of the comment followed by text: what follows it, to the comment's end, is what is hidden.
    for (let cr = text.indexOf(CR, comment.start); cr !== -1 && cr < comment.end; cr = text.indexOf(CR, cr + 1)) {
      const hidden = text.slice(cr + 1, comment.end).replaceAll(CR, ' ').trim();
      if (text[cr + 1] === '\n' || hidden === '') continue;
      lines ??= new LineIndex(text);
      states.push({ file: file.path, span: lines.span(cr, cr + 1), hidden });
      break;
    }
  }
  return states;
}

function quoted(hidden: string): string {
  return `"${hidden.length > MAX_HIDDEN_SHOWN ? `${hidden.slice(0, MAX_HIDDEN_SHOWN)}…` : hidden}"`;
}

export const loneCarriageReturnRule: Rule<LoneCarriageReturnState> = {
  meta: {
    id: 'lone-carriage-return',
    description:
      'A lone carriage return (CR without LF) inside a "#" comment: editors show a line break there, but nginx reads the rest of the line as comment.',
    defaultSeverity: 'warning',
    nginxVersions: '*',
    fixable: false,
  },
  detect({ workspace }) {
    return workspace.files.flatMap((file) => statesOf(file));
  },
  // A comment inside the block is the block's text: its states are found from the block's span alone.
  detectWithin(_context, block: Directive) {
    return statesOf(block.file, block.span.startOffset, block.span.endOffset).filter(
      (state) => state.span.startOffset >= block.span.startOffset && state.span.startOffset < block.span.endOffset,
    );
  },
  message: (state) => ({
    headline: `nginx reads ${quoted(state.hidden)} as comment: a lone CR does not end the line, use LF`,
  }),
};

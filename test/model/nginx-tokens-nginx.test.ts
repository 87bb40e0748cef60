// The port of ngx_conf_read_token (model/nginx-tokens.ts) against real nginx: where the port stops, `nginx -t` stops
// with the same words; where the port reads a form feed or a vertical tab into a word, nginx names that word.
import { describe, expect, it } from 'vitest';
import { nginxTokens } from '../../server/src/model/nginx-tokens.js';
import { nginxTest } from '../support/nginx.js';

/**
 * The port's first error, without its `error ` prefix, or ngx_conf_parse's about the blocks its tokens open and close
 * (the tokenizer does not count them); undefined when nginx would read the text to its end.
 */
function portError(text: string): string | undefined {
  let depth = 0;
  for (const token of nginxTokens(text)) {
    if (token.startsWith('error ')) return token.slice('error '.length);
    if (token === '{') depth++;
    else if (token === '}' && --depth < 0) return 'unexpected "}"';
  }
  return depth > 0 ? 'unexpected end of file, expecting "}"' : undefined;
}

function nginxFirstError(text: string): string | undefined {
  const result = nginxTest(() => text);
  return result.ok ? undefined : (result.errors[0]?.message ?? result.output);
}

describe('nginxTokens agrees with nginx -t', () => {
  it('stops where nginx stops, with its words', () => {
    const cases = [
      // A lone CR does not end the comment: the `}` after it is comment text, and the block is never closed.
      'events { # a\r}\n',
      // CR LF does end it.
      'events { # a\r\n}\n',
      'events {}\nworker_processes "1"x;\n',
      'events {}\nworker_processes 1 # no end\r;\n',
      'events {}\n{\n',
      'events {}\n}\n',
    ];
    for (const text of cases) {
      const port = portError(text);
      const nginx = nginxFirstError(text);
      if (port === undefined) expect(nginx, JSON.stringify(text)).toBeUndefined();
      else expect(nginx?.startsWith(port), `${JSON.stringify(text)}: nginx says ${nginx}, the port ${port}`).toBe(true);
    }
  });

  it('reads a form feed or vertical tab as part of a word, where a grammar with \\s for white space sees a comment', () => {
    for (const space of ['\f', '\v']) {
      const text = `events {}\n${space}#x;\n`;
      expect(nginxTokens(text)).toEqual(['word events', '{', '}', `word ${space}#x`, ';']);
      expect(nginxFirstError(text)).toBe(`unknown directive "${space}#x"`);
    }
  });
});

// The ports of ngx_parse_size / ngx_parse_offset / ngx_parse_time / ngx_atoi (analysis/value-parsers.ts) against the
// real nginx (Debian's 1.22.1): each word is given to a directive whose handler is that slot, and nginx -t's verdict
// must be the parser's. The words are the edges: units in either case, unit order, `ms` where seconds are wanted,
// spaces, empty and overflowing numbers.
import { describe, expect, it } from 'vitest';
import { parsesAsNumber, parsesAsOffset, parsesAsSize, parsesAsTime } from '../../server/src/analysis/value-parsers.js';
import { nginxTestSnippets } from '../support/nginx.js';

const WORDS = [
  '0', '10', '10k', '10K', '10m', '10M', '1g', '1G', '10MB', 'k', '', '1.5m', '-1', '99999999999999999999',
  '9223372036854775807', '30s', '500ms', '1h 30m', '1h30m', '1m 1h', '1y', '2M', '1w', '1d', '5x', '10 s', '1s 500ms',
  '1mss', 'ms', '30sec',
];

const PARSERS: [string, string, (word: string) => boolean][] = [
  ['size', 'client_body_buffer_size', parsesAsSize],
  ['offset', 'client_max_body_size', parsesAsOffset],
  ['msec', 'send_timeout', (word) => parsesAsTime(word, false)],
  ['sec', 'open_file_cache_valid', (word) => parsesAsTime(word, true)],
  ['number', 'keepalive_requests', parsesAsNumber],
];

describe('value parsers agree with nginx', () => {
  it.each(PARSERS)('%s (%s)', (_kind, directive, parses) => {
    const wrong: string[] = [];
    for (const word of WORDS) {
      const result = nginxTestSnippets([`server {\nlisten 127.0.0.1:1;\nlocation / {\n${directive} "${word}";\n}\n}\n`]);
      if (result.ok !== parses(word)) wrong.push(`"${word}": nginx ${result.ok ? 'accepts' : result.errors[0]?.message}, parser ${parses(word)}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});

// `prove`'s request path for a regex location (engine/regex-path.ts): within the subset it reads, the path it makes
// matches the pattern (checked here again with the pattern itself, as PCRE would read it in that subset) and can be
// sent as it is; outside the subset, or when no sendable path comes out, it says why instead of guessing.
import { describe, expect, it } from 'vitest';
import { regexRequestPath } from '../../server/src/engine/regex-path.js';

const GENERATED: [string, boolean, string][] = [
  ['^/api/(.*)$', false, '/api/'],
  ['\\.php$', true, '/prove.php'],
  ['(?i)^/(foo|bar)/[0-9]+$', false, '/foo/0'],
  ['^/(?<x>v1|v2)/items', false, '/v1/items'],
  ['\\.(jpg|png)$', true, '/prove.jpg'],
  ['^/static/[^/]+\\.css$', false, '/static/a.css'],
  ['^/ws', false, '/ws'],
  ['/download/\\d{2,4}/.+', false, '/download/11/a'],
  ['^/(?:a|b)?x$', false, '/x'],
  ['^/a$|^/b$', false, '/a'],
  ['^/(app|app_dev|config|index)\\.php(/|$)', false, '/app.php/'],
  ['^(.+\\.php)(.*)$', false, '/.php'],
  ['[^/]\\.php(/|$)', false, '/provea.php/'],
];

describe('regexRequestPath', () => {
  it.each(GENERATED)('%s (caseless %s) → %s, which matches it', (pattern, caseless, path) => {
    expect(regexRequestPath(pattern, caseless)).toEqual({ path });
    const source = pattern.replace(/^\(\?i\)/, '');
    expect(new RegExp(source, caseless || pattern.startsWith('(?i)') ? 'i' : '').test(path)).toBe(true);
  });

  it.each([
    ['/(?=x)', 'group construct'],
    ['^/a(?!b)', 'group construct'],
    ['^/(a)\\1$', 'escape \\1'],
    ['\\s', 'escape \\s'],
    ['(a+)+$', 'quantified group'],
    ['^/.*.*.*.*x', 'more than three repeats'],
    ['^/a{50}b{50}c{50}d{50}e', 'too long'],
    ['^api', 'cannot be sent'],
    ['^/a b', 'cannot be sent'],
    ['^/a//b', 'cannot be sent'],
    ['^/(a', 'unclosed group'],
    ['^/a$b', 'does not match'],
    ['[abc', 'unclosed character class'],
    ['^/[^z-a]', 'character class not understood'],
    ['^/[z-a]', 'pattern not understood'],
  ])('%s is skipped: %s', (pattern, why) => {
    const result = regexRequestPath(pattern, false);
    expect('skipped' in result && result.skipped).toContain(why);
  });
});

import { describe, expect, it } from 'vitest';
import { MarkerError, compareFindings, parseFixture } from './expectations.js';

describe('parseFixture', () => {
  it('reads same-line and next-line markers, with several and repeated ids', () => {
    const text = [
      'events {}', //                                  1
      'listen 80 # expect: syntax', //                 2
      '# expect-next-line: syntax', //                 3
      'add_header X "open', //                         4
      'server { # expect: syntax, upstream-keepalive, syntax', // 5
    ].join('\n');
    const { expected, options } = parseFixture(text);
    expect([...expected.entries()]).toEqual([
      [2, ['syntax']],
      [4, ['syntax']],
      [5, ['syntax', 'upstream-keepalive', 'syntax']],
    ]);
    expect(options).toEqual({});
  });

  it('merges a next-line marker with a marker on the target line', () => {
    const { expected } = parseFixture('# expect-next-line: a\nx; # expect: b\n');
    expect(expected.get(2)).toEqual(['a', 'b']);
  });

  it('counts a marker even inside what nginx would read as a string', () => {
    const { expected } = parseFixture('add_header X "a # expect: syntax\n";');
    expect(expected.get(1)).toEqual(['syntax']);
  });

  it('reads the options line', () => {
    const { options, expected } = parseFixture(
      '# nginx-keepalive-test: nginx-version=1.30.0 context=server modules=http_lua,stream\nlisten 80;\n',
    );
    expect(options).toEqual({ nginxVersion: '1.30.0', context: 'server', modules: ['http_lua', 'stream'] });
    expect(expected.size).toBe(0);
  });

  it('handles CRLF line ends', () => {
    expect(parseFixture('a;\r\nb # expect: syntax\r\n').expected.get(2)).toEqual(['syntax']);
  });

  it('rejects malformed markers instead of ignoring them', () => {
    expect(() => parseFixture('x; # expect: Syntax')).toThrow(MarkerError);
    expect(() => parseFixture('x; # expect:')).toThrow(/bad rule id/);
    expect(() => parseFixture('x; # expect: a,,b')).toThrow(/bad rule id/);
    expect(() => parseFixture('x;\n# expect-next-line: syntax')).toThrow(/last line/);
    expect(() => parseFixture('# nginx-keepalive-test: nginx-version=1.30')).toThrow(/x\.y\.z/);
    expect(() => parseFixture('# nginx-keepalive-test: colour=blue')).toThrow(/unknown fixture option/);
    expect(() => parseFixture('# nginx-keepalive-test: context=if')).toThrow(/context must be/);
    expect(() => parseFixture('# nginx-keepalive-test: nginx-version')).toThrow(/key=value/);
  });

  it('names the file and line in errors', () => {
    expect(() => parseFixture('a;\nb; # expect: X', 'f.conf')).toThrow(/^f\.conf:2: /);
  });
});

describe('compareFindings', () => {
  const expected = new Map([
    [2, ['syntax']],
    [5, ['syntax', 'syntax']],
  ]);

  it('accepts exactly the expected findings, in any order', () => {
    const actual = [
      { line: 5, ruleId: 'syntax', message: 'b' },
      { line: 2, ruleId: 'syntax', message: 'a' },
      { line: 5, ruleId: 'syntax', message: 'c' },
    ];
    expect(compareFindings('f.conf', expected, actual)).toEqual([]);
  });

  it('reports unexpected and missing findings by line', () => {
    const actual = [
      { line: 2, ruleId: 'syntax', message: 'ok' },
      { line: 3, ruleId: 'syntax', message: 'missing ";"' },
      { line: 5, ruleId: 'syntax', message: 'one of two' },
      { line: 5, ruleId: 'upstream-keepalive', message: 'other rule' },
    ];
    expect(compareFindings('f.conf', expected, actual)).toEqual([
      'f.conf:3 unexpected syntax "missing \\";\\""',
      'f.conf:5 unexpected upstream-keepalive "other rule"',
      'f.conf:5 missing syntax',
    ]);
  });

  it('reports every expectation as missing when nothing was found', () => {
    expect(compareFindings('f.conf', expected, [])).toEqual([
      'f.conf:2 missing syntax',
      'f.conf:5 missing syntax',
      'f.conf:5 missing syntax',
    ]);
  });
});

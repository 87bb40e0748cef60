// The playground's link contract: `#config=<base64url UTF-8>&file=<name>&nginx=<version>`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, readFragment, toBase64Url, writeFragment } from '../../server/src/playground/fragment.js';

describe('playground fragment', () => {
  it('round-trips any text, file name and version', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.constantFrom('nginx.conf', 'nginx.conf.sigil', 'site a.j2'), fc.constantFrom('', '1.22.1'), (text, fileName, nginxVersion) => {
        const link = readFragment(writeFragment({ text, fileName, nginxVersion }));
        expect(link).toEqual(nginxVersion ? { text, fileName, nginxVersion } : { text, fileName });
      }),
    );
  });

  it('encodes as base64url of UTF-8, as Buffer does, and reads it back with or without padding', () => {
    for (const text of ['', 'a', 'ümlaut → 🚀', 'upstream app {\n  keepalive 16;\n}\n'.repeat(2000)]) {
      const encoded = Buffer.from(text, 'utf8').toString('base64url');
      expect(toBase64Url(text)).toBe(encoded);
      expect(fromBase64Url(encoded)).toBe(text);
      expect(fromBase64Url(Buffer.from(text, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_'))).toBe(text);
    }
  });

  it('leaves out what it cannot read: bad base64url, bytes that are not UTF-8, a path for a name', () => {
    expect(readFragment('#config=%%%&file=../etc/passwd&nginx=1.30.0')).toEqual({ nginxVersion: '1.30.0' });
    expect(readFragment(`#config=${Buffer.from([0xff, 0xfe]).toString('base64url')}`)).toEqual({});
    expect(readFragment('#file=..')).toEqual({});
    expect(readFragment('')).toEqual({});
  });
});

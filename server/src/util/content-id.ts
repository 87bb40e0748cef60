// A short id naming a string's content (the language server's diagnostic resultIds): equal strings, equal ids, and
// different strings different ids but with a chance of about 2^-80. node's SHA-1 where there is one (a 2.4 MB string
// in 3 ms); in a web worker, whose bundle has no node:crypto (scripts/browser/), two 53-bit lanes of the
// public-domain cyrb53 mix seeded apart (about 20 ms for the same string). Ids are opaque: the two never meet.
import * as nodeCrypto from 'node:crypto';

function lane(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export function contentId(text: string): string {
  if (typeof nodeCrypto.createHash === 'function') return nodeCrypto.createHash('sha1').update(text).digest('hex').slice(0, 20);
  return portableContentId(text);
}

/** The id without node:crypto (exported for the test that holds it to its promise). */
export function portableContentId(text: string): string {
  return `${lane(text, 0).toString(36)}-${lane(text, 0x9e3779b9).toString(36)}`;
}

// A document may carry the real path its caller resolved (the CLI's discovery does): the loader takes it as the
// file's identity without asking the disk, so two names of one file are still one file.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { FileIdentities } from '../../server/src/model/file-identity.js';

const SITE = 'upstream app {\n  server 127.0.0.1:8080;\n}\nserver {\n  listen 80;\n  location / {\n    proxy_pass http://app;\n  }\n}\n';

describe('FileIdentities', () => {
  it('takes a real path it is given, and keeps the first answer for a path', () => {
    const identities = new FileIdentities();
    // Nothing of these exists: `of` would answer the path itself.
    expect(identities.known('/nk-missing/a.conf', '/nk-real/site.conf')).toBe('/nk-real/site.conf');
    expect(identities.of('/nk-missing/a.conf')).toBe('/nk-real/site.conf');
    expect(identities.of('/nk-missing/b.conf')).toBe('/nk-missing/b.conf');
    expect(identities.known('/nk-missing/b.conf', '/nk-real/other.conf')).toBe('/nk-missing/b.conf');
  });

  it('makes two documents naming one real file one file of the analysis', async () => {
    const realPath = '/nk-real/site.conf';
    const apart = await analyze([
      { path: '/nk-missing/a.conf', text: SITE },
      { path: '/nk-missing/b.conf', text: SITE },
    ]);
    const together = await analyze([
      { path: '/nk-missing/a.conf', text: SITE, realPath },
      { path: '/nk-missing/b.conf', text: SITE, realPath },
    ]);
    expect(new Set(apart.map((finding) => finding.file))).toEqual(new Set(['/nk-missing/a.conf', '/nk-missing/b.conf']));
    expect(together.map((finding) => finding.file)).toEqual(apart.filter((finding) => finding.file === '/nk-missing/a.conf').map((f) => f.file));
    expect(together.length).toBeGreaterThan(0);
  });
});

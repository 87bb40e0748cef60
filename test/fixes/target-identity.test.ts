import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../server/src/fixes/edits.js';
import { passes } from '../../server/src/analysis/passes.js';
import { implicitTarget } from '../../server/src/fixes/implicit-upstream.js';
import { targetIdentityEdits } from '../../server/src/fixes/target-identity.js';
import type { ResolvedOptions } from '../../server/src/util/types.js';
import { checkTree } from '../analysis/support.js';

const OLD: ResolvedOptions = { nginxVersion: undefined, keepaliveConnections: 16 };
const MODERN: ResolvedOptions = { nginxVersion: [1, 30, 0], keepaliveConnections: 16 };

/** The text after targetIdentityEdits for the first literal proxy_pass; undefined when no fix is possible. */
async function kept(text: string, options = OLD): Promise<{ text: string; setsConnection: boolean } | undefined> {
  const { workspace } = await checkTree({ 'site.conf': text });
  const pass = passes(workspace).find((p) => p.resolution.kind === 'implicit')!;
  const identity = targetIdentityEdits(workspace, pass, implicitTarget(pass)!, options);
  return identity && { text: applyEdits(text, identity.edits), setsConnection: identity.setsConnection };
}

const server = (level: string, location: string, path = '/') =>
  `server {\n${level}    location ${path} {\n${location}    }\n}\n`;

describe('targetIdentityEdits', () => {
  it("states the Host and the default redirect the address implied, in the pass's location", async () => {
    const result = await kept(server('', '        proxy_pass http://127.0.0.1:3000;\n'));
    expect(result).toEqual({
      text: server('', '        proxy_set_header Host 127.0.0.1:3000;\n        proxy_redirect http://127.0.0.1:3000/ /;\n        proxy_pass http://127.0.0.1:3000;\n'),
      setsConnection: false,
    });
  });

  it('gives the redirect of a URL with a URI part to the location prefix', async () => {
    const result = await kept(server('', '        proxy_set_header Host $host;\n        proxy_pass http://127.0.0.1:3000/v2/;\n', '/api/'));
    expect(result?.text).toContain('proxy_redirect http://127.0.0.1:3000/v2/ /api/;\n');
    expect(result?.text).not.toContain('Host 127.0.0.1');
  });

  it('adds nothing that a level already states', async () => {
    const level = '    proxy_set_header Host $host;\n    proxy_redirect off;\n    proxy_ssl_name api.test;\n';
    const text = server(level, '        proxy_pass https://127.0.0.1:8443;\n');
    expect(await kept(text)).toEqual({ text, setsConnection: false });
  });

  it('states the TLS name for https', async () => {
    const result = await kept(server('    proxy_redirect off;\n    proxy_set_header Host $host;\n', '        proxy_pass https://api.test;\n'));
    expect(result?.text).toContain('        proxy_ssl_name api.test;\n        proxy_pass https://api.test;\n');
  });

  it('copies an inherited set without Host down, with Connection cleared before 1.29.7 only', async () => {
    const level = '    proxy_set_header X-Real-IP $remote_addr;\n';
    const old = await kept(server(level, '        proxy_pass http://unix:/run/app.sock;\n'));
    expect(old).toEqual({
      text: server(
        level,
        '        proxy_set_header X-Real-IP $remote_addr;\n        proxy_set_header Host localhost;\n        proxy_set_header Connection "";\n        proxy_pass http://unix:/run/app.sock;\n',
      ),
      setsConnection: true,
    });
    const modern = await kept(server(level, '        proxy_pass http://unix:/run/app.sock;\n'), MODERN);
    expect(modern?.text).not.toContain('Connection');
  });

  it('replaces a literal Connection close while copying', async () => {
    const level = '    proxy_set_header Connection close;\n';
    const result = await kept(server(level, '        proxy_pass http://unix:/run/app.sock;\n'));
    expect(result?.text).toContain('        proxy_set_header Connection "";\n        proxy_set_header Host localhost;\n');
  });

  it('offers nothing when another proxy_pass shares the location', async () => {
    const location = '        if ($arg_x) {\n            proxy_pass http://127.0.0.1:3001;\n        }\n        proxy_pass http://127.0.0.1:3000;\n';
    expect(await kept(server('', location))).toBeUndefined();
  });

  it('offers nothing when the inherited set has a guarded member, or a level hides what it sets', async () => {
    const guarded = server('    {{ if $.X }}proxy_set_header X-A 1;{{ end }}\n    proxy_set_header X-B 2;\n', '        proxy_pass http://127.0.0.1:3000;\n');
    expect(await kept(guarded)).toBeUndefined();
    const hidden = server('    include missing-headers.conf;\n', '        proxy_pass http://127.0.0.1:3000;\n');
    expect(await kept(hidden)).toBeUndefined();
  });

  it('leaves out the redirect when the URL has variables (nginx then has no default)', async () => {
    const result = await kept(server('', '        proxy_pass http://127.0.0.1:3000/$1;\n', '~ ^/a/(.*)$'));
    expect(result?.text).not.toContain('proxy_redirect');
  });
});

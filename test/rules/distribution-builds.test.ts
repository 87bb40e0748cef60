// A distribution's build of nginx (model/distribution-builds.ts): Debian 12's 1.22.1 backports max_headers. Real
// nginx here is that build, and must agree: it accepts max_headers in http and server and refuses it in a location.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import { ConfigError, parseConfig } from '../../server/src/engine/config-file.js';
import { resolveOptions } from '../../server/src/engine/options.js';
import type { AnalyzeOptions } from '../../server/src/engine/types.js';
import type { FileHost } from '../../server/src/util/types.js';
import { nginxTestSnippets } from '../support/nginx.js';

const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };
const SITE = 'server {\n    listen 127.0.0.1:8080;\n    max_headers 100;\n}\n';

async function directiveMessages(text: string, options: AnalyzeOptions): Promise<string[]> {
  const findings = await analyze([{ path: '/virtual/site.conf', text }], { host: isolated, ...options });
  return findings.filter((finding) => finding.ruleId === 'directive').map((f) => `${f.span.start.line + 1}: ${f.message}`);
}

describe('distribution builds', () => {
  it("takes Debian 12's backported max_headers as nginx -t of Debian's 1.22.1 does", async () => {
    expect(nginxTestSnippets([SITE]).ok).toBe(true);
    expect(await directiveMessages(SITE, { nginxBuild: 'debian-12' })).toEqual([]);
    expect(await directiveMessages(SITE, { nginxBuild: 'debian-12', nginxVersion: '1.22.1' })).toEqual([]);
  });

  it('checks the backport where nginx does: not in a location', async () => {
    const text = 'server {\n    listen 127.0.0.1:8080;\n    location / {\n        max_headers 100;\n    }\n}\n';
    expect(nginxTestSnippets([text]).errors[0]?.message).toBe('"max_headers" directive is not allowed here');
    expect(await directiveMessages(text, { nginxBuild: 'debian-12' })).toEqual([
      '4: "max_headers" directive is not allowed in location: move it to http, server',
    ]);
  });

  it('names the build that has it when vanilla 1.22 is assumed', async () => {
    expect(await directiveMessages(SITE, { nginxVersion: '1.22.1' })).toEqual([
      '3: "max_headers" needs nginx 1.29.8+ (target 1.22.1), or Debian 12\'s build: set nginxBuild "debian-12"',
    ]);
  });

  it("is the build's release when no version is given, and says nothing for another release line", () => {
    expect(resolveOptions({ nginxBuild: 'debian-12' })).toMatchObject({ nginxVersion: [1, 22, 1], nginxBuild: 'debian-12' });
    expect(resolveOptions({ nginxBuild: 'debian-12', nginxVersion: '1.30.0' }).nginxBuild).toBeUndefined();
    expect(() => resolveOptions({ nginxBuild: 'debian-9' })).toThrow(/nginxBuild must be one of debian-12/);
  });

  it('is read from the settings file', () => {
    expect(parseConfig('{"nginxBuild": "debian-12"}', '/p/.nginx-keepalive.json', new Set()).nginxBuild).toBe('debian-12');
    expect(() => parseConfig('{"nginxBuild": "ubuntu"}', '/p/.nginx-keepalive.json', new Set())).toThrow(ConfigError);
  });
});

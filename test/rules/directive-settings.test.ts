// "directives.extra" in .nginx-keepalive.json: third-party directive names the `directive` rule takes as known.
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../server/src/engine/config-file.js';
import { analyze } from '../../server/src/engine/analyze.js';
import type { FileHost } from '../../server/src/util/types.js';

const known = new Set(['directive']);
const isolated: FileHost = { readFile: () => undefined, glob: () => [], exists: () => false };
const snippet = 'server {\n    listen 8080;\n    zorblax_window_mode on;\n}\n';

async function directiveMessages(extraDirectives?: string[]): Promise<string[]> {
  const findings = await analyze([{ path: '/virtual/site.conf', text: snippet }], { host: isolated, extraDirectives });
  return findings.filter((finding) => finding.ruleId === 'directive').map((finding) => finding.message);
}

describe('directives.extra', () => {
  it('is read from the settings file', () => {
    const config = parseConfig('{"directives": {"extra": ["vhost_traffic_status_filter"]}}', '/p/.nginx-keepalive.json', known);
    expect(config.extraDirectives).toEqual(['vhost_traffic_status_filter']);
  });

  it('rejects what is not a list of directive names, naming the key', () => {
    for (const bad of ['{"directives": []}', '{"directives": {"extras": []}}', '{"directives": {"extra": "x"}}', '{"directives": {"extra": ["a b"]}}']) {
      expect(() => parseConfig(bad, '/p/.nginx-keepalive.json', known), bad).toThrow(ConfigError);
      expect(() => parseConfig(bad, '/p/.nginx-keepalive.json', known), bad).toThrow(/"directives/);
    }
  });

  it('silences the unknown-directive finding for the names it lists, and only for them', async () => {
    expect(await directiveMessages()).toEqual([
      'unknown directive "zorblax_window_mode": fix the name, or add it to "directives.extra"',
    ]);
    expect(await directiveMessages(['zorblax_window_mode'])).toEqual([]);
    expect(await directiveMessages(['something_else'])).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../server/src/fixes/edits.js';
import { defaultOnEdits } from '../../server/src/fixes/template-opt-in.js';
import { findDirective, parseModel } from '../model/support.js';

async function defaultOn(text: string, file = '/virtual/nginx.conf.sigil'): Promise<string | undefined> {
  const model = await parseModel(text, file);
  const edits = defaultOnEdits(findDirective(model, 'keepalive'), findDirective(model, 'upstream'), 16);
  return edits && applyEdits(text, edits);
}

const upstream = (inner: string) => `upstream {{ $.APP }} {\n${inner}\n  server {{ $.IP }}:5000;\n}\n`;

describe('defaultOnEdits', () => {
  it("makes Dokku's one-line opt-in default-on with sigil's default", async () => {
    expect(await defaultOn(upstream('{{ if $.PROXY_KEEPALIVE }}  keepalive {{ $.PROXY_KEEPALIVE }};{{ end }}'))).toBe(
      upstream('  keepalive {{ $.PROXY_KEEPALIVE | default "16" }};'),
    );
  });

  it('removes the actions with their lines when they stand alone, trim markers and all', async () => {
    const text = upstream('  {{- if .KEEPALIVE }}\n  keepalive {{.KEEPALIVE}};\n  {{ end -}}');
    expect(await defaultOn(text)).toBe(upstream('  keepalive {{ .KEEPALIVE | default "16" }};'));
  });

  it('keeps CRLF line ends', async () => {
    const text = upstream('{{ if $.K }}\n  keepalive {{ $.K }};\n{{ end }}').replace(/\n/g, '\r\n');
    expect(await defaultOn(text)).toBe(upstream('  keepalive {{ $.K | default "16" }};').replace(/\n/g, '\r\n'));
  });

  it.each([
    ['not a sigil', upstream('{{ if $.K }}  keepalive {{ $.K }};{{ end }}'), '/virtual/nginx.tmpl'],
    ['a literal count', upstream('{{ if $.K }}  keepalive 32;{{ end }}'), undefined],
    ['a condition that is not the count', upstream('{{ if gt $.K 0 }}  keepalive {{ $.K }};{{ end }}'), undefined],
    ['an else branch', upstream('{{ if $.K }}  keepalive {{ $.K }};{{ else }}  least_conn;{{ end }}'), undefined],
    ['more inside the if', upstream('{{ if $.K }}  keepalive {{ $.K }};  keepalive_timeout 30s;{{ end }}'), undefined],
  ])('leaves %s alone', async (_name, text, file) => {
    expect(await defaultOn(text, file)).toBeUndefined();
  });
});

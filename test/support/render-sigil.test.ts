import { describe, expect, it } from 'vitest';
import { RenderError, renderSigil } from './render-sigil.js';

describe('renderSigil (Go text/template with sigil functions)', () => {
  it('splits piped values, indexes lists and reads variables as .X and $.X', () => {
    const template = '{{ range $p := .PORTS | split " " }}{{ $l := $p | split ":" }}[{{ index $l 0 }}/{{ $.APP }}]{{ end }}';
    expect(renderSigil(template, { PORTS: 'http:80 https:443', APP: 'my-app' })).toBe('[http/my-app][https/my-app]');
  });

  it('default gives the fallback for an empty or missing value, and the value otherwise', () => {
    const template = '{{ $.A | default "16" }} {{ $.B | default "16" }} {{ $.MISSING | default "16" }}';
    expect(renderSigil(template, { A: '', B: '32' })).toBe('16 32 16');
  });

  it('an empty variable is false in {{ if }}', () => {
    expect(renderSigil('{{ if $.K }}on{{ else }}off{{ end }}', { K: '' })).toBe('off');
  });

  it('rejects templates Go cannot parse, and output that prints a variable nobody gave', () => {
    expect(() => renderSigil('{{ if }}', {})).toThrow(RenderError);
    expect(() => renderSigil('keepalive {{ $.PROXY_KEEPALIVE }};', {})).toThrow(/<no value>/);
  });
});

import { describe, expect, it } from 'vitest';
import {
  actionRanges,
  hasNginxVariable,
  hasTemplateAction,
  indexOutsideActions,
  lastIndexOutsideActions,
  normaliseTemplateText,
} from '../../server/src/analysis/template-text.js';

describe('template text', () => {
  it('finds actions, skipping `}}` inside Go literals', () => {
    const text = 'a{{ "}}" }}b{{ `x}}` }}c{{ open';
    expect(actionRanges(text).map(([s, e]) => text.slice(s, e))).toEqual(['{{ "}}" }}', '{{ `x}}` }}', '{{ open']);
    expect(hasTemplateAction('plain')).toBe(false);
  });

  it('searches outside actions only', () => {
    const text = '{{ $a | split ":" }}:80/{{ $p }}/x';
    expect(indexOutsideActions(text, ':')).toBe(text.indexOf('}}:') + 2);
    expect(indexOutsideActions(text, '/')).toBe(text.indexOf(':80/') + 3);
    expect(lastIndexOutsideActions(text, '/')).toBe(text.length - 2);
    expect(hasNginxVariable('{{ $.APP }}-{{ $port }}')).toBe(false);
    expect(hasNginxVariable('{{ $.APP }}$suffix')).toBe(true);
  });

  it('searches from any offset, inside an action or between several, as a scan of every character would', () => {
    // The search steps through the actions once; this scan asks each character which action holds it.
    const scan = (text: string, chars: string, from: number): number => {
      const ranges = actionRanges(text);
      for (let i = from; i < text.length; i++) {
        const range = ranges.find(([start, end]) => i >= start && i < end);
        if (range) i = range[1] - 1;
        else if (chars.includes(text[i]!)) return i;
      }
      return -1;
    };
    const alphabet = ['{{', '}}', '{%', '%}', '{#', '#}', '{', '}', '"', '$', ':', '/', 'a'];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: next(12) }, () => alphabet[next(alphabet.length)]).join('');
      for (const chars of ['$', ':/', '}']) {
        for (let from = 0; from <= text.length; from++) expect(indexOutsideActions(text, chars, from), `${text} ${chars} ${from}`).toBe(scan(text, chars, from));
      }
    }
  });

  it('normalises white space and trim markers, but not inside literals', () => {
    expect(normaliseTemplateText('{{$.APP}}-{{ \t$upstream_port\n}}')).toBe('{{ $.APP }}-{{ $upstream_port }}');
    expect(normaliseTemplateText('{{- if  eq $x "a  b" -}}')).toBe('{{ if eq $x "a  b" }}');
    expect(normaliseTemplateText('{{-3}}')).toBe('{{ -3 }}');
    expect(normaliseTemplateText('Web-{{ $.App }}', true)).toBe('web-{{ $.App }}');
    expect(normaliseTemplateText('x{{ open')).toBe('x{{ open');
  });
});

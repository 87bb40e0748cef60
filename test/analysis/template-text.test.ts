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

  it('normalises white space and trim markers, but not inside literals', () => {
    expect(normaliseTemplateText('{{$.APP}}-{{ \t$upstream_port\n}}')).toBe('{{ $.APP }}-{{ $upstream_port }}');
    expect(normaliseTemplateText('{{- if  eq $x "a  b" -}}')).toBe('{{ if eq $x "a  b" }}');
    expect(normaliseTemplateText('{{-3}}')).toBe('{{ -3 }}');
    expect(normaliseTemplateText('Web-{{ $.App }}', true)).toBe('web-{{ $.App }}');
    expect(normaliseTemplateText('x{{ open')).toBe('x{{ open');
  });
});

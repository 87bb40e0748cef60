import { describe, expect, it } from 'vitest';
import {
  endAfterGuards,
  enclosingGuardsWithin,
  guardsExclusive,
  templateBlockOf,
} from '../../server/src/analysis/template-blocks.js';
import { findDirective, parseModel } from '../model/support.js';

const SIGIL = [
  'upstream {{ $.APP }} {',
  '{{ if $.A }}  ip_hash;{{ else if $.B }}  least_conn;{{ else }}  random;{{ end }}',
  '{{ range $l := $.LISTENERS | split " " }}',
  '  server {{ $l }};{{ end }}',
  '  keepalive 16;',
  '}',
  '',
].join('\n');

describe('templateBlockOf', () => {
  it('pairs an if with its else-if/else branches and its end', async () => {
    const file = await parseModel(SIGIL, '/virtual/t.sigil');
    const ipHash = findDirective(file, 'ip_hash');
    const block = templateBlockOf(file, ipHash.guards[0]!.control)!;
    expect(block.branches.map((b) => b.keyword)).toEqual(['else if', 'else']);
    expect(file.text.slice(block.end.span.startOffset, block.end.span.endOffset)).toBe('{{ end }}');
  });
});

describe('endAfterGuards', () => {
  it("is the end of the range around a server, within the upstream's block", async () => {
    const file = await parseModel(SIGIL, '/virtual/t.sigil');
    const upstream = findDirective(file, 'upstream');
    const server = findDirective(file, 'server');
    const end = endAfterGuards(server, upstream)!;
    expect(file.text.slice(server.span.endOffset, end)).toBe('{{ end }}');
    expect(enclosingGuardsWithin(server, upstream).map((g) => g.control.keyword)).toEqual(['range']);
  });

  it("is the directive's own end without guards, and undefined when the guard closes outside the block", async () => {
    const file = await parseModel('{{ if $.X }}\nupstream a {\n  server b;\n{{ end }}\n}\n', '/virtual/t.sigil');
    const upstream = findDirective(file, 'upstream');
    const server = findDirective(file, 'server');
    expect(endAfterGuards(server, upstream)).toBe(server.span.endOffset);
    const odd = await parseModel('upstream a {\n{{ if $.X }}\n  server b;\n}\n{{ end }}\n', '/virtual/t.sigil');
    expect(endAfterGuards(findDirective(odd, 'server'), findDirective(odd, 'upstream'))).toBeUndefined();
  });
});

describe('guardsExclusive', () => {
  it('is true for different branches of one if, false otherwise', async () => {
    const file = await parseModel(SIGIL, '/virtual/t.sigil');
    const [ipHash, leastConn, random] = ['ip_hash', 'least_conn', 'random'].map((name) => findDirective(file, name));
    expect(guardsExclusive(ipHash!, leastConn!)).toBe(true);
    expect(guardsExclusive(leastConn!, random!)).toBe(true);
    expect(guardsExclusive(ipHash!, findDirective(file, 'keepalive'))).toBe(false);
    expect(guardsExclusive(ipHash!, findDirective(file, 'server'))).toBe(false);
  });
});

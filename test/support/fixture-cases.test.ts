import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectCases, collectGoldens, expectedFixedTexts, fixtureHost, goldenPathOf, inputPathOf, isGolden, overlayHost } from './fixture-cases.js';
import { unifiedDiff } from './text-diff.js';

const root = mkdtempSync(path.join(tmpdir(), 'nk-fixture-cases-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, text: string): string {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const single = write('rule/invalid-a.conf', 'upstream a { server x; }\n');
const singleGolden = write('rule/invalid-a.fixed.conf', 'upstream a { server x; keepalive 16; }\n');
write('rule/valid-b.sigil', '');
const main = write('rule/invalid-c.d/nginx.conf', 'http { include conf.d/*.conf; }\n');
const included = write('rule/invalid-c.d/conf.d/up.conf', 'upstream c { server y; }\n');
const includedGolden = write('rule/invalid-c.d/conf.d/up.fixed.conf', 'upstream c { server y; keepalive 16; }\n');
const orphan = write('rule/invalid-gone.fixed.conf', '');

describe('fixture cases and goldens', () => {
  it('names goldens and their inputs', () => {
    expect(goldenPathOf('/x/invalid-a.conf')).toBe('/x/invalid-a.fixed.conf');
    expect(goldenPathOf('/x/nginx.conf.sigil')).toBe('/x/nginx.conf.fixed.sigil');
    expect(inputPathOf('/x/nginx.conf.fixed.sigil')).toBe('/x/nginx.conf.sigil');
    expect(isGolden('/x/invalid-a.fixed.conf')).toBe(true);
    expect(isGolden('/x/fixed.conf')).toBe(false);
  });

  it('never takes a golden as an input, and pairs inputs with their goldens', () => {
    const cases = collectCases(root);
    expect(cases.map((c) => c.name)).toEqual(['rule/invalid-a.conf', 'rule/invalid-c.d/', 'rule/valid-b.sigil']);
    expect([...cases[0]!.goldens]).toEqual([[single, singleGolden]]);
    expect(cases[1]!.files).toEqual([main, included]);
    expect([...cases[1]!.goldens]).toEqual([[included, includedGolden]]);
    expect(cases[2]!.goldens.size).toBe(0);
    expect(collectGoldens(root)).toEqual([orphan, singleGolden, includedGolden].sort());
  });

  it('expects inputs without a golden to stay as they are', () => {
    const texts = expectedFixedTexts(collectCases(root)[1]!);
    expect(texts.get(main)).toBe('http { include conf.d/*.conf; }\n');
    expect(texts.get(included)).toBe('upstream c { server y; keepalive 16; }\n');
  });

  it('hides goldens from the analysis, and overlays fixed texts', () => {
    const host = fixtureHost();
    expect(host.glob(path.join(root, 'rule/invalid-c.d/conf.d/*.conf'))).toEqual([included]);
    expect(host.readFile(includedGolden)).toBeUndefined();
    expect(host.exists(includedGolden)).toBe(false);
    const overlaid = overlayHost(host, new Map([[included, 'fixed']]));
    expect(overlaid.readFile(included)).toBe('fixed');
    expect(overlaid.readFile(main)).toBe('http { include conf.d/*.conf; }\n');
  });
});

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n')).toBe('');
  });

  it('shows changed lines with context and line numbers', () => {
    const diff = unifiedDiff('1\n2\n3\n4\n5\n6\n7\n8\n9\n', '1\n2\n3\n4\nfive\n6\n7\n8\n9\n', undefined, 1);
    expect(diff.split('\n')).toEqual(['--- expected', '+++ actual', '@@ line 4 @@', ' 4', '-5', '+five', ' 6']);
  });

  it('makes line ends, a byte order mark and the final newline visible', () => {
    expect(unifiedDiff('a\r\nb\r\n', 'a\nb\r\n')).toContain('-a␍');
    expect(unifiedDiff('\uFEFFa\n', 'a\n')).toContain('-<BOM>a');
    expect(unifiedDiff('a\n', 'a')).toContain('expected ends with a newline; actual does not');
  });
});

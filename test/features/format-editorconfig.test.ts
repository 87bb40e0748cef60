// The .editorconfig reader: sections, globs, precedence, root = true, and the boundary it never reads past.
import { describe, expect, it } from 'vitest';
import {
  editorConfigFor,
  expandBraces,
  mergeFormatOptions,
  sectionMatches,
} from '../../server/src/features/format-editorconfig.js';

/** A read function over an in-memory tree, recording what was asked for. */
function files(tree: Record<string, string>) {
  const asked: string[] = [];
  return { asked, read: (file: string) => (asked.push(file), tree[file]) };
}

describe('editorConfigFor', () => {
  it('applies matching sections, later ones and nearer files winning', () => {
    const { read } = files({
      '/repo/.editorconfig': 'root = true\n[*]\nindent_style = space\nindent_size = 4\n[*.conf]\nindent_size = 2\n',
      '/repo/deploy/.editorconfig': '# nearer\n[nginx/**.conf]\nindent_style = tab\ntab_width = 8\n',
    });
    expect(editorConfigFor('/repo/site.conf', '/repo', read)).toEqual({ indentStyle: 'space', indentSize: 2, tabWidth: 2 });
    expect(editorConfigFor('/repo/deploy/nginx/a/site.conf', '/repo', read)).toEqual({ indentStyle: 'tab', indentSize: 2, tabWidth: 8 });
    expect(editorConfigFor('/repo/deploy/other.sigil', '/repo', read)).toEqual({ indentStyle: 'space', indentSize: 4, tabWidth: 4 });
  });

  it('stops at root = true, and never reads above the boundary', () => {
    const stopped = files({ '/a/b/.editorconfig': 'root=true\n[*]\nindent_size=3\n', '/a/.editorconfig': '[*]\nindent_style=tab\n' });
    expect(editorConfigFor('/a/b/c/x.conf', '/', stopped.read)).toEqual({ indentSize: 3, tabWidth: 3 });
    expect(stopped.asked).toEqual(['/a/b/c/.editorconfig', '/a/b/.editorconfig']);
    const bounded = files({ '/a/.editorconfig': '[*]\nindent_style=tab\n' });
    expect(editorConfigFor('/a/b/c/x.conf', '/a/b', bounded.read)).toEqual({});
    expect(bounded.asked).toEqual(['/a/b/c/.editorconfig', '/a/b/.editorconfig']);
  });

  it('reads indent_size = tab as the tab width, and ignores unset, bad and absurd values', () => {
    const { read } = files({ '/r/.editorconfig': '[*]\nindent_style = tab\ntab_width = 6\nindent_size = tab\n[x.conf]\nindent_style = unset\n[y.conf]\nindent_size = 1000\n' });
    expect(editorConfigFor('/r/z.conf', '/r', read)).toEqual({ indentStyle: 'tab', indentSize: 6, tabWidth: 6 });
    expect(editorConfigFor('/r/x.conf', '/r', read)).toEqual({ indentSize: 6, tabWidth: 6 });
    expect(editorConfigFor('/r/y.conf', '/r', read)).toEqual({ indentStyle: 'tab', tabWidth: 6 });
  });

  it('keeps a key named __proto__ a key', () => {
    const { read } = files({ '/r/.editorconfig': '[*]\n__proto__ = x\nindent_size = 2\n' });
    expect(editorConfigFor('/r/a.conf', '/r', read)).toEqual({ indentSize: 2, tabWidth: 2 });
  });
});

describe('section globs', () => {
  it('matches a name without a slash at any depth, and a path with one from the file\'s directory', () => {
    expect(sectionMatches('*.conf', 'a/b/site.conf')).toBe(true);
    expect(sectionMatches('*.conf', 'site.confx')).toBe(false);
    expect(sectionMatches('sites/*.conf', 'sites/a.conf')).toBe(true);
    expect(sectionMatches('sites/*.conf', 'x/sites/a.conf')).toBe(false);
    expect(sectionMatches('/sites/*', 'sites/a')).toBe(true);
    expect(sectionMatches('**/nginx/*.conf', 'deploy/nginx/a.conf')).toBe(true);
  });

  it('expands braces, nested and numeric, and character classes', () => {
    expect(sectionMatches('*.{conf,sigil}', 'nginx.conf.sigil')).toBe(true);
    expect(sectionMatches('{a,{b,c}}.conf', 'c.conf')).toBe(true);
    expect(sectionMatches('site{1..3}.conf', 'site2.conf')).toBe(true);
    expect(sectionMatches('site{1..3}.conf', 'site4.conf')).toBe(false);
    expect(sectionMatches('[ab].conf', 'b.conf')).toBe(true);
    expect(sectionMatches('{single}.conf', '{single}.conf')).toBe(true);
  });

  it('gives up on a glob that would expand beyond the bound instead of exploding', () => {
    expect(expandBraces('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toBeUndefined();
    expect(sectionMatches('{1..100000}', '5')).toBe(false);
    const started = performance.now();
    expect(sectionMatches(`${'*a'.repeat(200)}b`, 'a'.repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('mergeFormatOptions', () => {
  it('takes each option from the first source that gives it, else the default', () => {
    expect(mergeFormatOptions({ indentSize: 2 }, { indentStyle: 'tab', indentSize: 8, tabWidth: 8 })).toEqual({
      indentStyle: 'tab',
      indentSize: 2,
      tabWidth: 8,
    });
    expect(mergeFormatOptions({ indentStyle: undefined }, {})).toEqual({ indentStyle: 'space', indentSize: 4, tabWidth: 4 });
  });
});

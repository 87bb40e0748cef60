// The README is a front door to docs/: every relative link in README.md and docs/**/*.md must lead somewhere (the file
// exists; a `#anchor` names a heading of the target page, by GitHub's slug), and every marker-delimited block must be
// one a test reads: the editor blocks the e2e tests run (RUN_BLOCKS), the generated rule table, and the sample
// output, which is checked here against what the CLI prints.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blockIn, RUN_BLOCKS } from './e2e/support/docs-block.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** README.md and every docs/**\/*.md, relative to the repository root, with `/` separators. */
function markdownFiles(): string[] {
  const docs = readdirSync(path.join(repoRoot, 'docs'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  return ['README.md', ...docs.sort()];
}

/** The lines outside fenced code blocks, with inline code spans blanked out (links in code are not links). */
function proseLines(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trimStart();
    if (fence !== undefined) {
      if (trimmed.startsWith(fence)) fence = undefined;
      continue;
    }
    if (trimmed.startsWith('```') || trimmed.startsWith('~~~')) {
      const char = trimmed[0]!;
      let n = 0;
      while (trimmed[n] === char) n++;
      fence = char.repeat(n);
      continue;
    }
    lines.push(withoutCodeSpans(line));
  }
  return lines;
}

function withoutCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      out += line[i++];
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    const ticks = '`'.repeat(n);
    let close = line.indexOf(ticks, i + n);
    while (close !== -1 && line[close + n] === '`') close = line.indexOf(ticks, close + n + 1);
    if (close === -1) {
      out += line.slice(i);
      break;
    }
    out += ' '.repeat(close + n - i);
    i = close + n;
  }
  return out;
}

/** Every `](target)` of inline links and images, scanned with indexOf (no regular expression to backtrack). */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    let at = line.indexOf('](');
    while (at !== -1) {
      const end = line.indexOf(')', at + 2);
      if (end === -1) break;
      const target = line.slice(at + 2, end).trim().split(' ')[0]!;
      targets.push(target);
      at = line.indexOf('](', end);
    }
  }
  return targets;
}

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
export function githubSlug(heading: string): string {
  let plain = '';
  let i = 0;
  while (i < heading.length) {
    const open = heading.indexOf('](', i);
    const bracket = heading.lastIndexOf('[', open);
    if (open === -1 || bracket < i) {
      plain += heading.slice(i);
      break;
    }
    const close = heading.indexOf(')', open);
    plain += heading.slice(i, bracket) + heading.slice(bracket + 1, open);
    i = close === -1 ? heading.length : close + 1;
  }
  let slug = '';
  for (const char of plain.trim().toLowerCase()) {
    if (char === ' ') slug += '-';
    else if (char === '-' || char === '_' || /[\p{L}\p{N}]/u.test(char)) slug += char;
  }
  return slug;
}

/** The anchors of a page's headings, numbered as GitHub numbers repeated ones (`x`, `x-1`, ...). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const hashes = line.length - line.replace(/^#+/, '').length;
    if (hashes === 0 || hashes > 6 || line[hashes] !== ' ') continue;
    const slug = githubSlug(line.slice(hashes + 1));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function read(file: string): string {
  return readFileSync(path.join(repoRoot, file), 'utf8');
}

/** Each relative link of `file` (whose text is `text`) that does not resolve, as "file: target (why)". */
function brokenLinks(file: string, text = read(file)): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not relative
    const hash = target.indexOf('#');
    const pathPart = hash === -1 ? target : target.slice(0, hash);
    const anchor = hash === -1 ? undefined : target.slice(hash + 1);
    const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)));
    if (pathPart !== '' && (resolved.startsWith('..') || !existsSync(path.join(repoRoot, resolved)))) {
      broken.push(`${file}: ${target} (no ${resolved})`);
      continue;
    }
    const targetText = pathPart === '' ? text : resolved.endsWith('.md') ? read(resolved) : undefined;
    if (anchor !== undefined && !(targetText !== undefined && anchorsOf(targetText).has(anchor))) {
      broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

/** The names of every `<!-- NAME:start -->` in a text. */
function markerNames(text: string): string[] {
  const names: string[] = [];
  let at = text.indexOf('<!-- ');
  while (at !== -1) {
    const end = text.indexOf(' -->', at);
    if (end === -1) break;
    const inner = text.slice(at + '<!-- '.length, end);
    if (inner.endsWith(':start')) names.push(inner.slice(0, -':start'.length));
    at = text.indexOf('<!-- ', end);
  }
  return names;
}

describe('documentation links', () => {
  it('knows GitHub slugs', () => {
    expect(githubSlug('Speed (`npm run bench`)'.replaceAll('`', ''))).toBe('speed-npm-run-bench');
    expect(githubSlug('VS Code for the Web (vscode.dev, github.dev)')).toBe('vs-code-for-the-web-vscodedev-githubdev');
    expect(githubSlug('Templates: Go, Jinja2, envsubst')).toBe('templates-go-jinja2-envsubst');
    expect(githubSlug('See [usage](usage.md) here')).toBe('see-usage-here');
    expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n### B_c\n')]).toEqual(['a', 'a-1', 'b_c']);
  });

  it('finds links outside code only', () => {
    expect(linkTargets('[a](x.md) `[b](y.md)` ![i](img.png "t")\n```\n[c](z.md)\n```\n')).toEqual(['x.md', 'img.png']);
  });

  it('every relative link in README.md and docs/ resolves, anchors included', () => {
    const files = markdownFiles();
    expect(files).toContain('docs/usage.md');
    expect(files.flatMap((file) => brokenLinks(file))).toEqual([]);
  });

  it('a missing page, a missing heading or a link out of the repository is reported', () => {
    const text = [
      '# Here',
      '[a](nope.md) [b](usage.md#no-such-heading) [c](usage.md#which-nginx) [d](../README.md#why)',
      '[e](#here) [f](#there) [g](../../outside.md) [h](images/vscode-status.png#x) [i](https://example.com/#nowhere)',
    ].join('\n');
    expect(brokenLinks('docs/new-page.md', text)).toEqual([
      'docs/new-page.md: nope.md (no docs/nope.md)',
      'docs/new-page.md: usage.md#no-such-heading (no heading #no-such-heading in docs/usage.md)',
      'docs/new-page.md: #there (no heading #there in docs/new-page.md)',
      'docs/new-page.md: ../../outside.md (no ../outside.md)',
      'docs/new-page.md: images/vscode-status.png#x (no heading #x in docs/images/vscode-status.png)',
    ]);
  });
});

describe('marker-delimited blocks', () => {
  const OTHER_MARKERS: Record<string, string> = { rules: 'README.md', 'sample-output': 'README.md' };

  it('each marker is a block a test reads, held by the page that test reads it from, once', () => {
    const misplaced: string[] = [];
    for (const file of markdownFiles()) {
      for (const name of markerNames(read(file))) {
        const home = (RUN_BLOCKS as Record<string, { file: string }>)[name]?.file ?? OTHER_MARKERS[name];
        if (home !== file) misplaced.push(`${file}: <!-- ${name}:start --> (${home ? `belongs in ${home}` : 'read by no test'})`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('every block the e2e tests run is in its page, fenced, and named by a test', () => {
    const e2e = readdirSync(path.join(repoRoot, 'test/e2e')).filter((f) => f.endsWith('.test.ts'));
    const sources = e2e.map((f) => readFileSync(path.join(repoRoot, 'test/e2e', f), 'utf8')).join('\n');
    for (const [name, { file, fence }] of Object.entries(RUN_BLOCKS)) {
      expect(blockIn(read(file), name, fence).length, name).toBeGreaterThan(0);
      expect(sources.includes(`docsBlock('${name}')`), `a test runs ${name}`).toBe(true);
    }
  });

  it("the README's sample output is what `check examples/` prints", () => {
    const readme = read('README.md');
    const sample = readme.slice(readme.indexOf('<!-- sample-output:start -->'), readme.indexOf('<!-- sample-output:end -->'));
    const command = '$ npx nginx-keepalive check examples/\n';
    const from = sample.indexOf('```\n' + command);
    expect(from).toBeGreaterThan(-1);
    const shown = sample.slice(from + 4 + command.length, sample.indexOf('\n```', from + 4) + 1);
    const cli = spawnSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), 'check', 'examples/'], { cwd: repoRoot, encoding: 'utf8' });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toBe(shown);
  });
});

import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../server/src/fixes/edits.js';
import { analyze } from '../../server/src/engine/analyze.js';
import { fixAll } from '../../server/src/engine/fix-all.js';
import { parseSuppressionComments } from '../../server/src/engine/suppression-comments.js';
import { suppressionEdit, UNUSED_SUPPRESSION_RULE_ID } from '../../server/src/engine/suppressions.js';
import type { Finding } from '../../server/src/util/types.js';
import type { AnalyzeOptions } from '../../server/src/engine/types.js';
import { includeRule } from '../../server/src/rules/include.js';
import { findRule } from '../../server/src/rules/registry.js';
import { unusedSuppressionRule } from '../../server/src/rules/unused-suppression.js';
import { tempTree } from '../model/support.js';
import { docsFrom } from './support.js';

/** `include missing.conf;` gives an include warning on its line: the finding these tests suppress. */
async function check(text: string, options: AnalyzeOptions = {}, rules = [includeRule, unusedSuppressionRule]) {
  const root = tempTree({ 'nginx.conf': text });
  return analyze(docsFrom(root, 'nginx.conf'), options, rules);
}

const summary = (findings: Finding[]) => findings.map((f) => `${f.span.start.line + 1}:${f.span.start.column + 1} ${f.ruleId} ${f.message}`);

describe('suppression comments', () => {
  it('suppress the next line', async () => {
    expect(await check('events {}\n# nginx-keepalive-ignore include: vendored\ninclude missing.conf;\n')).toEqual([]);
  });

  it('skip comment lines to reach the next non-comment line, at any indentation', async () => {
    const text = 'events {}\nhttp {\n    # nginx-keepalive-ignore include\n    # why: vendored\n    include missing.conf;\n}\n';
    expect(await check(text)).toEqual([]);
  });

  it('apply to one line only, and a blank line is a line', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore include\n\ninclude missing.conf;\n';
    const findings = await check(text);
    expect(findings.map((f) => [f.span.start.line + 1, f.ruleId])).toEqual([
      [2, 'unused-suppression'],
      [4, 'include'],
    ]);
    expect(findings[0]!.message).toBe('unused suppression: no "include" finding on line 3');
    expect(findings[0]!.span.start.column).toBe('# nginx-keepalive-ignore '.length);
  });

  it('file-wide: every finding of the rule in the file', async () => {
    const text = '# nginx-keepalive-ignore-file include: generated\nevents {}\ninclude a.conf;\ninclude b.conf;\n';
    expect(await check(text)).toEqual([]);
  });

  it('name several rules; each unused one is reported at its own id', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore syntax, include: both\ninclude missing.conf;\n';
    const findings = await check(text, {}, [includeRule, findRule('syntax')!, unusedSuppressionRule]);
    expect(summary(findings)).toEqual(['2:26 unused-suppression unused suppression: no "syntax" finding on line 3']);
  });

  it('report an unknown rule, a missing id, and a suppression with nothing after it', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore includ: typo\n# nginx-keepalive-ignore: no id\n# nginx-keepalive-ignore include\n';
    expect(summary(await check(text))).toEqual([
      '2:26 unused-suppression unknown rule "includ" in suppression (separate rule ids with "," and the reason with ":")',
      '3:1 unused-suppression suppression names no rule (expected "# nginx-keepalive-ignore <rule-id>: reason")',
      '4:26 unused-suppression unused suppression: no line follows it',
    ]);
  });

  it('end their rule list at a further comment', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore include # expect: unused-suppression\n';
    expect(summary(await check(text))).toEqual(['2:26 unused-suppression unused suppression: no line follows it']);
  });

  it('do not count when trailing a directive, or for a longer marker', async () => {
    const text = 'events {}\ninclude missing.conf; # nginx-keepalive-ignore include\n# nginx-keepalive-ignored include\ninclude b.conf;\n';
    expect((await check(text)).map((f) => f.ruleId)).toEqual(['include', 'include']);
  });

  it('report nothing when unused-suppression is off, or not among the rules, but still suppress', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore include\ninclude missing.conf;\n# nginx-keepalive-ignore include\n';
    expect(await check(text, { rules: { [UNUSED_SUPPRESSION_RULE_ID]: 'off' } })).toEqual([]);
    expect(await check(text, {}, [includeRule])).toEqual([]);
  });

  it('give unused-suppression its configured severity, and can silence it file-wide', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore include\n';
    expect((await check(text, { rules: { [UNUSED_SUPPRESSION_RULE_ID]: 'error' } })).map((f) => f.severity)).toEqual(['error']);
    expect(await check(`# nginx-keepalive-ignore-file unused-suppression\n${text}`)).toEqual([]);
  });

  it('count a suppression of a rule that is turned off as unused (as ESLint does)', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore include\ninclude missing.conf;\n';
    expect((await check(text, { rules: { include: 'off' } })).map((f) => f.ruleId)).toEqual([UNUSED_SUPPRESSION_RULE_ID]);
  });

  it('work in included files, for the findings in them', async () => {
    const root = tempTree({
      'nginx.conf': 'events {}\nhttp {\n  include site.conf;\n}\n',
      'site.conf': '# nginx-keepalive-ignore include: on the server only\ninclude /srv/only-there.conf;\n',
    });
    const findings = await analyze(docsFrom(root, 'nginx.conf'), {}, [includeRule, unusedSuppressionRule]);
    expect(findings).toEqual([]);
  });
});

describe('unused-suppression fixes', () => {
  async function fixText(text: string) {
    const root = tempTree({ 'nginx.conf': text });
    const docs = docsFrom(root, 'nginx.conf');
    const result = await fixAll(docs, {}, [includeRule, findRule('syntax')!, unusedSuppressionRule]);
    return result.texts.get(docs[0]!.path) ?? text;
  }

  it('remove the whole comment line when it names only the unused rule', async () => {
    expect(await fixText('events {}\n  # nginx-keepalive-ignore include: stale\nhttp {}\n')).toBe('events {}\nhttp {}\n');
    expect(await fixText('events {}\r\n# nginx-keepalive-ignore include\r\nhttp {}\r\n')).toBe('events {}\r\nhttp {}\r\n');
    expect(await fixText('events {}\n# nginx-keepalive-ignore include')).toBe('events {}');
  });

  it('remove only the unused rule from a list, keeping the used one and the reason', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore syntax, include: why\ninclude missing.conf;\n';
    expect(await fixText(text)).toBe('events {}\n# nginx-keepalive-ignore include: why\ninclude missing.conf;\n');
  });

  it('leave unknown rule ids for a person to correct', async () => {
    const text = 'events {}\n# nginx-keepalive-ignore includ\ninclude missing.conf;\n';
    expect(await fixText(text)).toBe(text);
  });
});

describe('suppressionEdit', () => {
  const finding = (text: string, needle: string): Finding => {
    const offset = text.indexOf(needle);
    const before = text.slice(0, offset);
    const line = before.split('\n').length - 1;
    const column = offset - (before.lastIndexOf('\n') + 1);
    const position = { line, column };
    return {
      ruleId: 'include',
      severity: 'warning',
      message: 'x',
      file: '/x/nginx.conf',
      span: { start: position, end: position, startOffset: offset, endOffset: offset },
    };
  };

  it('inserts a comment line above the finding, with its indentation and line ending', () => {
    const text = 'http {\r\n\tinclude missing.conf;\r\n}\r\n';
    const edit = suppressionEdit(text, finding(text, 'include'), '\r\n', '\t', 'vendored');
    expect(applyEdits(text, [edit])).toBe('http {\r\n\t# nginx-keepalive-ignore include: vendored\r\n\tinclude missing.conf;\r\n}\r\n');
  });

  it('keeps a byte order mark first', () => {
    const text = '\uFEFFinclude missing.conf;\n';
    const edit = suppressionEdit(text, finding(text, 'include'), '\n', '');
    expect(applyEdits(text, [edit])).toBe('\uFEFF# nginx-keepalive-ignore include\ninclude missing.conf;\n');
  });

  it('adds the rule to a suppression comment already above the line', () => {
    const text = '  # nginx-keepalive-ignore syntax: reason\n  include missing.conf\n';
    const edit = suppressionEdit(text, finding(text, 'include'), '\n', '  ');
    expect(applyEdits(text, [edit])).toBe('  # nginx-keepalive-ignore syntax, include: reason\n  include missing.conf\n');
  });

  it('produces a comment the parser reads back as suppressing that line', () => {
    const text = 'events {}\n    include missing.conf;\n';
    const edited = applyEdits(text, [suppressionEdit(text, finding(text, 'include'), '\n', '    ')]);
    const [comment] = parseSuppressionComments(edited);
    expect(comment).toMatchObject({ scope: 'line', targetLine: 2, rules: [{ id: 'include' }] });
  });
});

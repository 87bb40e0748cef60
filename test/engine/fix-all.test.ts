import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixAll, MAX_FIX_PASSES } from '../../server/src/engine/fix-all.js';
import type { SourceDocument } from '../../server/src/util/types.js';
import type { Rule } from '../../server/src/analysis/rule-api.js';
import { syntaxRule } from '../../server/src/rules/syntax.js';
import { tempTree } from '../model/support.js';
import {
  braceBreaker,
  crossFileRule,
  defaultServer,
  docsFrom,
  flipFlop,
  needsServerName,
  noOp,
  port8080,
  timeoutAfterListen,
  timesTen,
  unsafePort,
} from './support.js';
import { directiveRule, reportingRule } from './support.js';
import { allDirectives } from '../model/support.js';
import { replaceSpan } from '../../server/src/fixes/edits.js';

const doc = (text: string, name = 'site.conf'): SourceDocument => ({ path: path.join(tempTree({}), name), text });

async function fixed(text: string, rules: Rule[]) {
  const document = doc(text);
  const result = await fixAll([document], {}, rules);
  return { ...result, text: result.texts.get(document.path) ?? text, document };
}

describe('fixAll', () => {
  it('applies a fix, re-analyzes, and reports nothing left', async () => {
    const result = await fixed('server {\n    listen 80;\n}\n', [port8080]);
    expect(result.text).toBe('server {\n    listen 8080;\n}\n');
    expect(result.passes).toBe(1);
    expect(result.remaining).toEqual([]);
    expect(result.originals.get(result.document.path)).toBe('server {\n    listen 80;\n}\n');
  });

  it('returns no texts and zero passes when nothing is fixable', async () => {
    const result = await fixed('server {\n    listen 443;\n}\n', [port8080]);
    expect(result.texts.size).toBe(0);
    expect(result.passes).toBe(0);
  });

  it('runs as many passes as the fixes need', async () => {
    const result = await fixed('server { listen 80; }\n', [timesTen]);
    expect(result.text).toBe('server { listen 8000; }\n');
    expect(result.passes).toBe(2);
    expect(result.remaining).toEqual([]);
    expect(result.hitPassLimit).toBe(false);
  });

  it('has a generous pass bound: a chain of 50 dependent fixes reaches its fixed point', async () => {
    // Each pass moves one port up by one (the next fix only exists once the previous one landed), 50 passes deep.
    const countUp = reportingRule(
      { id: 'count-up', description: 'test', defaultSeverity: 'warning', nginxVersions: '*', fixable: true },
      (context) => {
        for (const file of context.workspace.files) {
          for (const listen of allDirectives(file.directives).filter((d) => d.name === 'listen')) {
            const port = listen.args[0]!;
            const value = Number(port.value);
            if (value >= 1050) continue;
            const fix = { title: '+1', edits: [replaceSpan(listen.file, port.span, String(value + 1))] };
            context.report({ file: file.path, span: port.span, message: 'count', fix });
          }
        }
      },
    );
    const result = await fixed('server { listen 1000; }\n', [countUp]);
    expect(result.text).toBe('server { listen 1050; }\n');
    expect(result.passes).toBe(50);
    expect(result.hitPassLimit).toBe(false);
    expect(result.remaining).toEqual([]);
  });

  it('applies unsafe fixes only when asked: the finding stays, flagged, and its fix is never built', async () => {
    const text = 'server {\n  listen 80;\n}\n';
    const safeOnly = await fixed(text, [unsafePort, timeoutAfterListen]);
    expect(safeOnly.text).toBe('server {\n  listen 80;\n  keepalive_timeout 5s;\n}\n');
    expect(safeOnly.remaining).toHaveLength(1);
    const [left] = safeOnly.remaining;
    expect(left).toMatchObject({ ruleId: 'unsafe-port', fixable: true, unsafeFix: true, detail: 'clients reach this server unencrypted' });
    expect(Object.getOwnPropertyDescriptor(left!, 'fix')?.get).toBeDefined(); // still lazy: not built

    const document = doc(text);
    const withUnsafe = await fixAll([document], {}, [unsafePort, timeoutAfterListen], { unsafe: true });
    expect(withUnsafe.texts.get(document.path)).toBe('server {\n  listen 8443;\n  keepalive_timeout 5s;\n}\n');
    expect(withUnsafe.remaining).toEqual([]);
  });

  it('built fixes declaring safety "unsafe" are held back too (a finding made with its fix in hand)', async () => {
    const declared = reportingRule(
      { id: 'declared-unsafe', description: 'test', defaultSeverity: 'warning', nginxVersions: '*', fixable: true },
      (context) => {
        for (const file of context.workspace.files) {
          for (const listen of allDirectives(file.directives).filter((d) => d.name === 'listen')) {
            const port = listen.args[0]!;
            if (port.value !== '80') continue;
            const fix = { title: 'x', safety: 'unsafe' as const, edits: [replaceSpan(listen.file, port.span, '81')] };
            context.report({ file: file.path, span: port.span, message: 'declared', fix });
          }
        }
      },
    );
    const safeOnly = await fixed('server { listen 80; }\n', [declared]);
    expect(safeOnly.texts.size).toBe(0);
    expect(safeOnly.remaining.map((finding) => finding.ruleId)).toEqual(['declared-unsafe']);
    const document = doc('server { listen 80; }\n');
    const withUnsafe = await fixAll([document], {}, [declared], { unsafe: true });
    expect(withUnsafe.texts.get(document.path)).toBe('server { listen 81; }\n');
  });

  // Defence in depth for issue 25: a safe fix rewrote a pass to a third party into a pass to a new upstream{}, the next
  // pass no longer saw the stranger, and the header copy withheld as unsafe applied as "safe".
  describe('a fix unsafe when first offered stays refused after a safe fix changed how it looks', () => {
    /** At each server_name: unsafe while the server listens on 80, "safe" once port-8080 rewrote that. */
    const turncoat = reportingRule(
      { id: 'turncoat', description: 'test', defaultSeverity: 'warning', nginxVersions: '*', fixable: true },
      (context) => {
        for (const file of context.workspace.files) {
          for (const name of allDirectives(file.directives).filter((d) => d.name === 'server_name')) {
            const plain = name.parent!.children.some((child) => child.name === 'listen' && child.args[0]?.value === '80');
            const edit = replaceSpan(name.file, name.args[0]!.span, 'stranger.example');
            context.report({ file: file.path, span: name.span, message: 'turncoat', unsafeFix: plain ? true : undefined, fix: { title: 'x', edits: [edit] } });
          }
        }
      },
    );
    const text = 'server {\n  listen 80;\n  server_name app;\n}\n';

    it('is left alone on every later pass, and its finding stays', async () => {
      const safeOnly = await fixed(text, [turncoat, port8080]);
      expect(safeOnly.text).toBe('server {\n  listen 8080;\n  server_name app;\n}\n');
      expect(safeOnly.remaining.map((finding) => finding.ruleId)).toEqual(['turncoat']);
    });

    it('still applies with unsafe', async () => {
      const document = doc(text);
      const withUnsafe = await fixAll([document], {}, [turncoat, port8080], { unsafe: true });
      expect(withUnsafe.texts.get(document.path)).toBe('server {\n  listen 8080;\n  server_name stranger.example;\n}\n');
    });

    it('stays refused when a safe fix inserted a statement before it, where its rule now reports', async () => {
      /** At each server block's first statement: unsafe while the server listens on 80. */
      const firstStatement = reportingRule(
        { id: 'first-statement', description: 'test', defaultSeverity: 'warning', nginxVersions: '*', fixable: true },
        (context) => {
          for (const file of context.workspace.files) {
            for (const server of allDirectives(file.directives).filter((d) => d.name === 'server')) {
              const first = server.children[0]!;
              const plain = server.children.some((child) => child.name === 'listen' && child.args[0]?.value === '80');
              const edit = replaceSpan(first.file, { startOffset: first.span.endOffset, endOffset: first.span.endOffset }, ' # told');
              context.report({ file: file.path, span: first.span, message: 'first', unsafeFix: plain ? true : undefined, fix: { title: 'x', edits: [edit] } });
            }
          }
        },
      );
      const result = await fixed('server {\n  listen 80;\n}\n', [firstStatement, port8080, needsServerName]);
      expect(result.text).toBe('server {\n  server_name _;\n  listen 8080;\n}\n');
      expect(result.remaining.map((finding) => finding.ruleId)).toEqual(['first-statement']);
    });

    it('stays refused when a safe fix rewrote the statement it stood at', async () => {
      // Rewrites the whole `server_name app;` (to `server_name app ;`) in the pass that withholds turncoat's fix.
      const rewrite = directiveRule('rewrite', 'server_name', (name, report) => {
        if (!name.file.text.includes('app ;')) report(name.span, { title: 'r', edits: [replaceSpan(name.file, name.span, 'server_name app ;')] });
      });
      const result = await fixed(text, [rewrite, turncoat, port8080]);
      expect(result.text).toBe('server {\n  listen 8080;\n  server_name app ;\n}\n');
      expect(result.remaining.map((finding) => finding.ruleId)).toEqual(['turncoat']);
    });
  });

  it('defers an overlapping fix to the next pass, where it is recomputed from the new text', async () => {
    // default-server's span (the directive) starts before port-8080's (the port), so it wins the first pass.
    const result = await fixed('server {\n  listen 80;\n}\n', [port8080, defaultServer]);
    expect(result.text).toBe('server {\n  listen 8080 default_server;\n}\n');
    expect(result.passes).toBe(2);
  });

  it('applies non-overlapping fixes in one pass', async () => {
    const result = await fixed('server {\n  listen 80;\n}\nserver {\n  listen 80;\n}\n', [port8080]);
    expect(result.text).toBe('server {\n  listen 8080;\n}\nserver {\n  listen 8080;\n}\n');
    expect(result.passes).toBe(1);
  });

  it('never lands two identical insertions at one offset: the second waits and is then no longer needed', async () => {
    const result = await fixed('server {\n  listen 80;\n  listen 443;\n}\n', [needsServerName]);
    expect(result.text).toBe('server {\n  server_name _;\n  listen 80;\n  listen 443;\n}\n');
    expect(result.remaining).toEqual([]);
  });

  it('drops a fix whose result would not parse, keeps its finding, and still applies the others', async () => {
    const result = await fixed('server {\n  listen 80;\n}\n', [braceBreaker, port8080, syntaxRule]);
    expect(result.text).toBe('server {\n  listen 8080;\n}\n');
    expect(result.remaining.map((finding) => finding.ruleId)).toEqual(['brace-breaker']);
  });

  it('does not fix a file that already has syntax errors', async () => {
    const result = await fixed('server {\n  listen 80;\n  return 200\n}\n', [port8080, syntaxRule]);
    expect(result.texts.size).toBe(0);
    expect(result.remaining.map((finding) => finding.ruleId).sort()).toEqual(['port-8080', 'syntax']);
  });

  it('keeps CRLF line endings, tab indentation and the byte order mark', async () => {
    const text = '\uFEFFserver {\r\n\tlisten 80;\r\n}\r\n';
    const result = await fixed(text, [timeoutAfterListen, port8080]);
    expect(result.text).toBe('\uFEFFserver {\r\n\tlisten 8080;\r\n\tkeepalive_timeout 5s;\r\n}\r\n');
  });

  it('is idempotent: fixing the result again changes nothing', async () => {
    const rules = [port8080, defaultServer, needsServerName, timeoutAfterListen];
    const once = await fixed('server {\n  listen 80;\n}\nserver { listen 80; }\n', rules);
    expect(once.passes).toBeGreaterThan(0);
    const twice = await fixAll([{ path: once.document.path, text: once.text }], {}, rules);
    expect(twice.texts.size).toBe(0);
    expect(twice.passes).toBe(0);
    expect(twice.remaining).toEqual(once.remaining);
  });

  it('stops after MAX_FIX_PASSES when fixes never settle, and says so', async () => {
    const result = await fixed('server { listen 80; }\n', [flipFlop]);
    expect(result.passes).toBe(MAX_FIX_PASSES);
    expect(result.hitPassLimit).toBe(true);
    expect(result.text).toBe('server { listen 80; }\n'); // an even number of flips
    expect(result.texts.size).toBe(0); // the same text as the original is no change
    expect(result.remaining).toHaveLength(1);
  });

  it('stops at once when a fix changes nothing', async () => {
    const result = await fixed('server { listen 80; }\n', [noOp]);
    expect(result.passes).toBe(0);
    expect(result.remaining).toHaveLength(1);
  });

  it('fixes an included file, names it by absolute path, and re-analyzes its new text', async () => {
    const root = tempTree({
      'nginx.conf': 'events {}\nhttp {\n  include conf.d/*.conf;\n}\n',
      'conf.d/site.conf': 'server {\n  listen 80;\n}\n',
    });
    const result = await fixAll(docsFrom(root, 'nginx.conf'), {}, [port8080]);
    const site = path.join(root, 'conf.d/site.conf');
    expect([...result.texts.keys()]).toEqual([site]);
    expect(result.texts.get(site)).toBe('server {\n  listen 8080;\n}\n');
    expect(result.originals.get(site)).toBe('server {\n  listen 80;\n}\n');
    expect(result.remaining).toEqual([]);
  });

  it('leaves fixes to files canEdit refuses, with their findings', async () => {
    const root = tempTree({
      'nginx.conf': 'events {}\nhttp {\n  include conf.d/*.conf;\n  server { listen 80; }\n}\n',
      'conf.d/site.conf': 'server {\n  listen 80;\n}\n',
    });
    const main = path.join(root, 'nginx.conf');
    const result = await fixAll(docsFrom(root, 'nginx.conf'), {}, [port8080], { canEdit: (file) => file === main });
    expect([...result.texts.keys()]).toEqual([main]);
    expect(result.remaining.map((finding) => path.relative(root, finding.file))).toEqual(['conf.d/site.conf']);
  });

  it('applies a fix across files all or nothing', async () => {
    const files = { 'nginx.conf': 'events {}\nhttp {\n  include site.conf;\n}\n', 'site.conf': 'server {\n}\n' };
    const good = await fixAll(docsFrom(tempTree(files), 'nginx.conf'), {}, [crossFileRule(false)]);
    expect(good.texts.size).toBe(2);
    const bad = await fixAll(docsFrom(tempTree(files), 'nginx.conf'), {}, [crossFileRule(true)]);
    expect(bad.texts.size).toBe(0);
    expect(bad.remaining.map((finding) => finding.ruleId)).toEqual(['cross-file']);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, INTERNAL_ERROR_RULE_ID } from '../../server/src/engine/analyze.js';
import { parseNginxVersion, resolveOptions } from '../../server/src/engine/options.js';
import type { SourceDocument } from '../../server/src/util/types.js';
import { reportingRule } from './support.js';
import { rules as registeredRules } from '../../server/src/rules/registry.js';
import { tempTree } from '../model/support.js';

function docsFrom(root: string, ...relative: string[]): SourceDocument[] {
  return relative.map((r) => ({ path: path.join(root, r), text: readFileSync(path.join(root, r), 'utf8') }));
}

function ruleThat(id: string, check: Parameters<typeof reportingRule>[1]) {
  return reportingRule({ id, description: id, defaultSeverity: 'warning', nginxVersions: '*', fixable: false }, check);
}

describe('analyze', () => {
  it('reports include problems on a real tree, sorted by file then offset', async () => {
    const root = tempTree({
      'nginx.conf': 'events {}\nhttp {\n  include missing-b.conf;\n  include conf.d/*.conf;\n  include missing-a.conf;\n}\n',
      'conf.d/site.conf': 'include conf.d/site.conf;\n',
    });
    const findings = await analyze(docsFrom(root, 'nginx.conf'));
    expect(findings.map((f) => [f.ruleId, path.relative(root, f.file), f.span.start.line, f.severity])).toEqual([
      ['include', 'conf.d/site.conf', 0, 'warning'],
      ['include', 'nginx.conf', 2, 'warning'],
      ['include', 'nginx.conf', 4, 'warning'],
    ]);
  });

  it('applies severity overrides and drops rules turned off', async () => {
    const root = tempTree({ 'nginx.conf': 'events {}\ninclude missing.conf;\n' });
    const docs = docsFrom(root, 'nginx.conf');
    expect((await analyze(docs, { rules: { include: 'error' } })).map((f) => f.severity)).toEqual(['error']);
    expect(await analyze(docs, { rules: { include: 'off' } })).toEqual([]);
  });

  it('keeps the other rules findings when one rule throws, and names the failing rule', async () => {
    const root = tempTree({ 'nginx.conf': 'events {}\ninclude missing.conf;\n' });
    const broken = ruleThat('broken', () => {
      throw new Error('boom');
    });
    const findings = await analyze(docsFrom(root, 'nginx.conf'), {}, [broken, ...registeredRules]);
    expect(findings.map((f) => f.ruleId).sort()).toEqual(['include', INTERNAL_ERROR_RULE_ID]);
    const internal = findings.find((f) => f.ruleId === INTERNAL_ERROR_RULE_ID)!;
    expect(internal.severity).toBe('error');
    expect(internal.message).toContain('broken');
  });

  it('drops identical findings and keeps a report severity over the configured one', async () => {
    const root = tempTree({ 'nginx.conf': 'events {}\n' });
    const twice = ruleThat('twice', (context) => {
      const file = context.workspace.files[0]!;
      const span = file.directives[0]!.span;
      context.report({ file: file.path, span, message: 'same' });
      context.report({ file: file.path, span, message: 'same' });
      context.report({ file: file.path, span, message: 'guarded', severity: 'info' });
    });
    const findings = await analyze(docsFrom(root, 'nginx.conf'), { rules: { twice: 'error' } }, [twice]);
    expect(findings.map((f) => [f.message, f.severity])).toEqual([
      ['same', 'error'],
      ['guarded', 'info'],
    ]);
  });

  it('hands rules the resolved options', async () => {
    let seen: unknown;
    const probe = ruleThat('probe', (context) => {
      seen = context.options;
    });
    await analyze([{ path: '/virtual/a.conf', text: '' }], { nginxVersion: '1.29.7' }, [probe]);
    expect(seen).toEqual({ nginxVersion: [1, 29, 7], keepaliveConnections: 16 });
  });

  it('reports syntax problems of unsaved text without touching the disk', async () => {
    const findings = await analyze([{ path: '/virtual/nowhere/site.conf', text: 'server {\n  listen 80\n' }]);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.ruleId === 'syntax' && f.file === '/virtual/nowhere/site.conf')).toBe(true);
  });
});

describe('options', () => {
  it('parses nginx versions', () => {
    expect(parseNginxVersion('1.22.1')).toEqual([1, 22, 1]);
    expect(parseNginxVersion('1.25')).toEqual([1, 25, 0]);
    expect(parseNginxVersion('one.two')).toBeUndefined();
  });

  it('rejects options no rule could honour', async () => {
    expect(() => resolveOptions({ nginxVersion: 'latest' })).toThrow(RangeError);
    expect(() => resolveOptions({ keepaliveConnections: 0 })).toThrow(RangeError);
    await expect(analyze([], { nginxVersion: 'latest' })).rejects.toThrow(RangeError);
  });
});

// Cross-checks the syntax fixtures with real nginx: valid-* must pass `nginx -t`, invalid-* must fail with a
// tokenizer/block-structure error inside the fixture itself. This keeps our expectations honest about nginx.
// Also checks that the plain example config is valid nginx.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseFixture } from './support/expectations.js';
import { makePrefix, nginxTest, nginxTestFile, requireNginx, wrapInclude, type NginxTestResult } from './support/nginx.js';

const root = path.dirname(fileURLToPath(import.meta.url));
const syntaxDir = path.join(root, 'fixtures', 'syntax');
const fixtures = readdirSync(syntaxDir).filter((f) => f.endsWith('.conf')).sort();
// Multi-file cases: directories whose nginx.conf is a whole main config.
const multiFile = readdirSync(syntaxDir).filter((f) => f.endsWith('.d')).sort();

// The messages of ngx_conf_read_token / ngx_conf_parse: what a `syntax` finding corresponds to.
const SYNTAX_CLASS = /^(unexpected |unterminated |missing |directive "[^"]+" has no opening "\{"|directive "[^"]+" is not terminated by ";"|unexpected end of file)/;

function testMain(file: string): NginxTestResult {
  const prefix = makePrefix();
  try {
    return nginxTestFile(file, prefix);
  } finally {
    prefix.remove();
  }
}

function testFixture(file: string): NginxTestResult {
  const { options } = parseFixture(readFileSync(file, 'utf8'), path.basename(file));
  return nginxTest((prefix) => wrapInclude(file, options.context ?? 'http', prefix, options.modules ?? []));
}

describe('real nginx agrees with the syntax fixtures', () => {
  it('finds nginx and the fixtures', () => {
    requireNginx();
    expect(fixtures.filter((f) => f.startsWith('valid-')).length).toBeGreaterThanOrEqual(5);
    expect(fixtures.filter((f) => f.startsWith('invalid-')).length).toBeGreaterThanOrEqual(5);
    expect(fixtures.every((f) => /^(valid|invalid)-/.test(f))).toBe(true);
  });

  it.each(fixtures.filter((f) => f.startsWith('valid-')))('nginx -t accepts %s', (name) => {
    const result = testFixture(path.join(syntaxDir, name));
    expect(result.ok, result.output).toBe(true);
  });

  it.each(fixtures.filter((f) => f.startsWith('invalid-')))('nginx -t rejects %s with a syntax error', (name) => {
    const file = path.join(syntaxDir, name);
    const result = testFixture(file);
    expect(result.ok, result.output).toBe(false);
    const first = result.errors[0];
    expect(first, result.output).toBeDefined();
    expect(first!.message, result.output).toMatch(SYNTAX_CLASS);
    expect(first!.file, result.output).toBe(file);
  });

  it.each(multiFile)('nginx -t agrees with the multi-file case %s', (name) => {
    const dir = path.join(syntaxDir, name);
    const result = testMain(path.join(dir, 'nginx.conf'));
    expect(result.ok, result.output).toBe(name.startsWith('valid-'));
    if (!result.ok) {
      expect(result.errors[0]?.message, result.output).toMatch(SYNTAX_CLASS);
      expect(result.errors[0]?.file?.startsWith(`${dir}/`), result.output).toBe(true);
    }
  });
});

describe('examples are valid nginx', () => {
  it('nginx -t accepts examples/plain/nginx.conf as the main config', () => {
    const result = testMain(path.join(root, '..', 'examples', 'plain', 'nginx.conf'));
    expect(result.ok, result.output).toBe(true);
  });
});

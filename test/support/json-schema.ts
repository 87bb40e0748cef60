// A JSON Schema validator for the CI formats' published schemas (test/cli/schemas). Ajv is in node_modules through
// @vscode/vsce (it is not a direct devDependency: reached with require so no package manifest changes for it).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

type AjvClass = typeof import('ajv').default;
type Validate = ReturnType<InstanceType<AjvClass>['compile']>;
const require = createRequire(import.meta.url);
const Ajv = (require('ajv') as { default: AjvClass }).default;

/**
 * Errors of `value` against the schema file (empty: valid). reviewdog's schema says draft-04, GitLab's draft-07:
 * the keywords they use (type, properties, required, items, enum, oneOf, $ref into definitions) mean the same in
 * both, so the `$schema` line is dropped and Ajv's default draft reads them.
 */
export function schemaErrors(schemaFile: string | URL, value: unknown): string[] {
  const validate = validator(String(schemaFile));
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

const compiled = new Map<string, Validate>();

function validator(schemaFile: string): Validate {
  let validate = compiled.get(schemaFile);
  if (!validate) {
    const file = schemaFile.startsWith('file:') ? new URL(schemaFile) : schemaFile;
    const { $schema: _draft, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    compiled.set(schemaFile, validate);
  }
  return validate;
}

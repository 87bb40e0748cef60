// A finding's fix, built only when read. analyze() runs detect() and message() for every finding but leaves the
// edits to whoever asks: `check` without --fix builds none, the language server builds one finding's edits for a
// code action, fix-all builds what it applies.
//
//   attachLazyFix(finding, build)   `finding.fix` calls build() once, on first read
//   materializeFixes(findings)      makes each fix a plain property (before findings cross a thread)
import type { Finding, Fix } from '../util/types.js';

export function attachLazyFix(finding: Finding, build: () => Fix | undefined): void {
  finding.fixable = true;
  Object.defineProperty(finding, 'fix', {
    configurable: true,
    enumerable: false,
    get(this: Finding) {
      const fix = build();
      Object.defineProperty(this, 'fix', { value: fix, configurable: true, enumerable: false, writable: true });
      return fix;
    },
  });
}

/** Builds every fix and keeps it as an ordinary property, so a structured clone (a worker's reply) carries it. */
export function materializeFixes(findings: readonly Finding[]): void {
  for (const finding of findings) {
    if (!finding.fixable) continue;
    const fix = finding.fix;
    Object.defineProperty(finding, 'fix', { value: fix, configurable: true, enumerable: true, writable: true });
  }
}

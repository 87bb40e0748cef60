import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../server/src/engine/options.js';
import {
  compareVersions,
  formatVersion,
  hasModernKeepaliveDefaults,
  MODERN_KEEPALIVE_VERSION,
  targetAtLeast,
} from '../../server/src/analysis/versions.js';

describe('versions', () => {
  it('assumes the pre-1.29.7 defaults when no target is set', () => {
    expect(hasModernKeepaliveDefaults(resolveOptions({}))).toBe(false);
    expect(targetAtLeast(resolveOptions({}), [1, 0, 0])).toBe(false);
  });

  it.each([
    ['1.22.1', false],
    ['1.29.6', false],
    ['1.29.7', true],
    ['1.30', true],
    ['1.30.5', true],
    ['1.31.6', true],
    ['2.0.0', true],
  ])('target %s has modern keepalive defaults: %s', (version, modern) => {
    expect(hasModernKeepaliveDefaults(resolveOptions({ nginxVersion: version }))).toBe(modern);
  });

  it('compares and formats versions component by component', () => {
    expect(compareVersions([1, 29, 7], [1, 30, 0])).toBeLessThan(0);
    expect(compareVersions([1, 10, 0], [1, 9, 9])).toBeGreaterThan(0);
    expect(compareVersions([1, 29, 7], MODERN_KEEPALIVE_VERSION)).toBe(0);
    expect(targetAtLeast(resolveOptions({ nginxVersion: '1.19.10' }), [1, 19, 10])).toBe(true);
    expect(formatVersion(MODERN_KEEPALIVE_VERSION)).toBe('1.29.7');
  });
});

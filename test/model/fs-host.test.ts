import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFsHost } from '../../server/src/core/fs-host.js';
import { tempTree } from './support.js';

describe('createFsHost', () => {
  it('reads files and returns undefined for what it cannot read', () => {
    const root = tempTree({ 'a.conf': 'gzip on;\n' });
    const host = createFsHost();
    expect(host.readFile(path.join(root, 'a.conf'))).toBe('gzip on;\n');
    expect(host.readFile(path.join(root, 'missing.conf'))).toBeUndefined();
    expect(host.readFile(root)).toBeUndefined();
    expect(host.exists(path.join(root, 'a.conf'))).toBe(true);
    expect(host.exists(path.join(root, 'missing.conf'))).toBe(false);
  });

  it('expands glob segments in directories and files, in byte order', () => {
    const root = tempTree({
      'sites/one/x.conf': '',
      'sites/two/x.conf': '',
      'sites/two/y.txt': '',
      'sites/file-not-dir': '',
      'sites/.hidden/x.conf': '',
      'sites/three/x1.conf': '',
    });
    const host = createFsHost();
    expect(host.glob(path.join(root, 'sites/*/x.conf')).map((p) => path.relative(root, p))).toEqual([
      'sites/one/x.conf',
      'sites/two/x.conf',
    ]);
    expect(host.glob(path.join(root, 'sites/t[hw]*/x?.conf')).map((p) => path.relative(root, p))).toEqual([
      'sites/three/x1.conf',
    ]);
    expect(host.glob(path.join(root, 'nothing/*.conf'))).toEqual([]);
    expect(host.glob(path.join(root, 'sites/.h*/x.conf'))).toHaveLength(1);
  });
});

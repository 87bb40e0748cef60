// The bounded reads stop at the size fstat gave instead of reading once more to see the end; what they return must
// not change for it, including for files whose fstat size says nothing (Linux's /proc files are regular and "empty").
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFile, readRegularFilePrefix } from '../../server/src/util/read-file.js';
import { tempTree } from '../model/support.js';

describe('readRegularFile and readRegularFilePrefix', () => {
  it('read exactly the file, at every size around the bounds', () => {
    const root = tempTree({});
    for (const size of [0, 1, 7, 8, 9, 4096, 65535, 65536, 65537]) {
      const file = path.join(root, `f${size}`);
      const bytes = Buffer.alloc(size, 'a');
      writeFileSync(file, bytes);
      const whole = readRegularFile(file, 65536);
      if (size > 65536) expect(whole).toEqual({ kind: 'too-large', size });
      else expect(whole.kind === 'read' && whole.bytes.equals(bytes)).toBe(true);
      const prefix = readRegularFilePrefix(file, 8, Buffer.alloc(9));
      expect(prefix.kind === 'read' && prefix.bytes.equals(bytes.subarray(0, 8)) && prefix.truncated === size > 8).toBe(true);
    }
  });

  it.runIf(existsSync('/proc/self/status'))('read a regular file fstat calls empty to its end', () => {
    const expected = readFileSync('/proc/self/status', 'utf8').split('\n')[0];
    const whole = readRegularFile('/proc/self/status', 1 << 20);
    expect(whole.kind === 'read' ? whole.bytes.toString('utf8').split('\n')[0] : whole.kind).toBe(expected);
    const prefix = readRegularFilePrefix('/proc/self/status', 1 << 16);
    expect(prefix.kind === 'read' ? prefix.bytes.toString('utf8').split('\n')[0] : prefix.kind).toBe(expected);
  });
});

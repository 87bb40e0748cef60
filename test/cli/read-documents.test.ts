import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocuments } from '../../server/src/cli/read-documents.js';
import { useTempTrees } from './helpers.js';

const tree = useTempTrees();

describe('readDocuments', () => {
  it('reads text, skips binary files with a note, reports unreadable paths and keeps going', () => {
    const root = tree({
      'a.conf': 'events {}\n',
      'image.conf': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'dir.conf/x': '',
      'z.conf': 'http {}\n',
    });
    const files = ['a.conf', 'dir.conf', 'gone.conf', 'image.conf', 'z.conf'].map((name) => path.join(root, name));
    const result = readDocuments(files, root);
    expect(result.documents).toEqual([
      { path: path.join(root, 'a.conf'), text: 'events {}\n' },
      { path: path.join(root, 'z.conf'), text: 'http {}\n' },
    ]);
    expect(result.errors).toEqual(['dir.conf: is a directory', 'gone.conf: no such file or directory']);
    expect(result.notes).toEqual(['image.conf: skipped (binary file)']);
  });

  it('only looks for NUL bytes in the first 8 KB', () => {
    const root = tree({ 'late.conf': Buffer.concat([Buffer.from('#'.repeat(8192)), Buffer.from([0])]) });
    expect(readDocuments([path.join(root, 'late.conf')], root).documents).toHaveLength(1);
  });
});

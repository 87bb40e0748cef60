// The file names in a zip archive (a VSIX is one), read from its central directory: enough to check what a package
// holds without an unzip tool or a zip library.
import { readFileSync } from 'node:fs';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;

export function zipEntries(file: string): string[] {
  const zip = readFileSync(file);
  // The end record is the last 22 bytes plus a comment of up to 64 KiB; search backwards for its signature.
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) end--;
  if (end < 0) throw new Error(`${file}: not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`${file}: bad central directory`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

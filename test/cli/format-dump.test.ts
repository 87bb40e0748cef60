// `format` given a saved `nginx -T` dump (the real nginx's, of a two-file configuration): refused with a clear
// message and exit 2, the dump untouched, nothing on stdout; named on the command line or piped to `format -`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { makePrefix, requireNginx } from '../support/nginx.js';
import { runCli, useTempTrees } from './helpers.js';

const tree = useTempTrees();

function nginxDump(): string {
  const prefix = makePrefix();
  try {
    writeFileSync(path.join(prefix.dir, 'site.conf'), 'server {\n  listen 127.0.0.1:18099;\n}\n');
    const main = path.join(prefix.dir, 'nginx.conf');
    writeFileSync(main, `pid ${prefix.dir}/nginx.pid;\nevents {}\nhttp {\n    ${prefix.httpTempPaths}\n    include site.conf;\n}\n`);
    const dump = spawnSync(requireNginx(), ['-T', '-q', '-p', `${prefix.dir}/`, '-e', `${prefix.dir}/logs/error.log`, '-c', main], { encoding: 'utf8' });
    expect(dump.status, dump.stderr).toBe(0);
    return dump.stdout;
  } finally {
    prefix.remove();
  }
}

it('refuses an nginx -T dump, saved or piped, and writes nothing', () => {
  const dump = nginxDump();
  // Its markers and the site's two-space indent: formatted as one file, it would change.
  expect(dump.split('\n').filter((line) => line.startsWith('# configuration file '))).toHaveLength(2);
  const root = tree({ 'dump.txt': dump });
  const message = 'nginx-keepalive: dump.txt: not formatted: an nginx -T dump (several files in one); format the files themselves\n';
  for (const args of [['format', 'dump.txt'], ['format', '--check', 'dump.txt'], ['format', '--diff', 'dump.txt']]) {
    const result = runCli(root, args);
    expect(result, args.join(' ')).toMatchObject({ status: 2, stdout: '', stderr: message });
  }
  expect(readFileSync(path.join(root, 'dump.txt'), 'utf8')).toBe(dump);
  const piped = runCli(root, ['format', '-'], {}, dump);
  expect(piped).toMatchObject({ status: 2, stdout: '', stderr: message.replace('dump.txt', '<stdin>') });
});

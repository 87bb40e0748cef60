// nginx-linter's CLI stops the whole run at the first file it cannot parse, so each file gets its own invocation of
// the CLI's entry point, all in one node process (files on stdin, one per line). Prints how many failed to parse.
const { main } = require(process.argv[2]);

const files = require('node:fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
let failed = 0;
const output = {
  log() {},
  // The CLI reports a parse failure as "Unexpected error: Error: Failed to parse: <file>" and returns 1.
  error(...parts) {
    if (String(parts[0]).startsWith('Unexpected error')) failed++;
  },
};
for (const file of files) main(['--include', file, '--no-follow-includes'], output);
process.stdout.write(`${JSON.stringify({ files: files.length, failed })}\n`);

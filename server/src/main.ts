// Entry point of the `nginx-keepalive` binary: parse the command line, dispatch, set the exit code.
import { parseCommandLine, UsageError, type Command } from './cli/args.js';
import { runCheck } from './cli/check.js';
import { runRuleCommand, runRulesCommand } from './cli/docs-command.js';
import { runFormat } from './cli/format-command.js';
import { EXIT_CLEAN, EXIT_FAILURE, type ExitCode } from './cli/exit-codes.js';
import { HELP_TEXT, VERSION } from './cli/help.js';
import { withoutControlCharacters } from './util/paths.js';

const PROGRAM = 'nginx-keepalive';

/**
 * One message line. Control characters are escaped here, at the one way out: a message may repeat a path as typed (a
 * shell's `*` can expand to a hostile name) or a file's name, and a terminal must never receive an escape sequence.
 */
function stderrLine(message: string): void {
  process.stderr.write(`${PROGRAM}: ${withoutControlCharacters(message)}\n`);
}

/**
 * `nginx-keepalive lsp --stdio`: the language server takes over the process; it exits when the client says so (or
 * its input closes), so the returned promise never settles. Loaded on demand: `check` does not pay for it.
 */
async function startLanguageServer(): Promise<ExitCode> {
  const { startLanguageServer: start } = await import('./lsp/server.js');
  start();
  return new Promise<ExitCode>(() => {});
}

async function run(command: Command): Promise<ExitCode> {
  switch (command.kind) {
    case 'help':
      process.stdout.write(HELP_TEXT);
      return EXIT_CLEAN;
    case 'version':
      process.stdout.write(`${VERSION}\n`);
      return EXIT_CLEAN;
    case 'lsp':
      return startLanguageServer();
    case 'rules':
      return runRulesCommand({ stdout: (text) => process.stdout.write(text), stderrLine });
    case 'rule':
      return runRuleCommand(command.id, { stdout: (text) => process.stdout.write(text), stderrLine });
    case 'format':
      return runFormat(command.options, { cwd: process.cwd(), stdout: (text) => process.stdout.write(text), stderrLine });
    case 'prove': {
      // Loaded when asked, like the language server: its HTTP and process modules cost `check` start-up time.
      const { runProve } = await import('./cli/prove/prove-command.js');
      return runProve(command.options, {
        cwd: process.cwd(),
        env: process.env,
        stdout: (text) => process.stdout.write(text),
        stderrLine,
      });
    }
    case 'check':
      return runCheck(command.options, {
        cwd: process.cwd(),
        stdout: (text) => process.stdout.write(text),
        stderrLine,
        stderr: (text) => process.stderr.write(text),
      });
  }
}

async function main(): Promise<ExitCode> {
  try {
    const command = parseCommandLine(process.argv.slice(2), {
      cwd: process.cwd(),
      env: process.env,
      stdoutIsTTY: process.stdout.isTTY === true,
    });
    return await run(command);
  } catch (error) {
    if (error instanceof UsageError) {
      stderrLine(`${error.message} (see '${PROGRAM} --help')`);
    } else {
      // A bug, not bad input: the stack is what a bug report needs.
      stderrLine(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    return EXIT_FAILURE;
  }
}

// `check | head` closes the pipe early: the reader's choice, not a crash; the exit code still reports the findings.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

// exitCode rather than exit(): lets a large report finish flushing to a pipe. Not a top-level await: the single
// executable (scripts/build-binary.mjs) bundles this file as CommonJS, which has none. main() never rejects.
void main().then((code) => {
  process.exitCode = code;
});

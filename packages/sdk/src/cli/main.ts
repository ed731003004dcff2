import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { describeError, ExitCode, exitCodeFor } from './exit-codes.js';
import { runGet } from './get.js';
import type { CliIO } from './io.js';
import { runSend } from './send.js';

declare const __FERRY_VERSION__: string | undefined;

/** The CLI's version: set by the esbuild bundle from package.json. */
export const VERSION = typeof __FERRY_VERSION__ === 'string' ? __FERRY_VERSION__ : '0.0.0-dev';

export const DEFAULT_SERVER = 'http://localhost:8080';

/** The server of `ferry send`: --server, else $FERRY_SERVER, else http://localhost:8080. */
export function resolveServer(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag || env.FERRY_SERVER || DEFAULT_SERVER;
}

/** How long to wait for an unreachable server: $FERRY_RETRY_SECONDS, default 60. */
export function retryForMs(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.FERRY_RETRY_SECONDS);
  return env.FERRY_RETRY_SECONDS && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000;
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('expected a whole number of 1 or more.');
  }
  return Number(value);
}

const EXIT_CODES = `
Exit codes:
  0  success
  1  any other error (network, server, integrity, usage; rate limited: wait and retry)
  2  password missing or wrong
  3  transfer or file not found, expired or disabled
  4  download limit reached
  130 interrupted (Ctrl-C); run the same command again to resume

Environment:
  FERRY_SERVER         default server for "ferry send" (else ${DEFAULT_SERVER})
  FERRY_STATE_DIR      where resume journals are kept (else $XDG_STATE_HOME/ferry or ~/.local/state/ferry)
  FERRY_RETRY_SECONDS  how long to keep retrying while the server is unreachable (default 60)
  FERRY_DEBUG=1        print stack traces of errors`;

/** Builds the `ferry` command; actions write through `io` and note the server they talk to in `context`. */
export function buildProgram(io: CliIO, context: { server?: string } = {}): Command {
  const program = new Command('ferry')
    .description('Send and receive large files with a Ferry server.')
    .version(VERSION, '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show help for a command')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`ferry: ${text.replace(/^error: /, '')}`),
    })
    .addHelpText('after', EXIT_CODES);

  program
    .command('send')
    .summary('upload files and folders as one transfer; print its download link')
    .description(
      'Upload files and folders as one transfer and print its download link (the only line on stdout).\n\n' +
        'Folders are sent recursively with their own name as the first path segment. Symbolic links inside ' +
        'them are not followed. Files the service refuses (e.g. .exe, .html) are skipped with a warning.\n\n' +
        'Interrupted (Ctrl-C, lost connection, server restart)? Run the same command again: it continues ' +
        'the same transfer from where the server stopped.',
    )
    .argument('<path...>', 'files and folders to send')
    .addOption(
      new Option(
        '-s, --server <url>',
        'Ferry server to send to (default: $FERRY_SERVER, else http://localhost:8080)',
      ),
    )
    .option('-p, --password <password>', 'protect the transfer with a password')
    .option('--max-downloads <n>', 'allow at most n downloads', positiveInteger)
    .option(
      '--expires-in-days <n>',
      'keep the transfer available for n days (capped by your plan)',
      positiveInteger,
    )
    .option('-n, --name <title>', 'title of the transfer')
    .option('-m, --message <text>', 'message shown to recipients')
    .option('-q, --quiet', 'no progress or info lines on stderr (warnings and errors still)')
    .addHelpText(
      'after',
      '\nExamples:\n  link=$(ferry send report.pdf photos/ --password s3cret --max-downloads 3)\n',
    )
    .action(async (paths: string[], opts) => {
      context.server = resolveServer(opts.server, io.env);
      await runSend(
        paths,
        { ...opts, server: resolveServer(opts.server, io.env), retryForMs: retryForMs(io.env) },
        io,
      );
    });

  program
    .command('get')
    .summary('download a transfer (or one of its files) from its link')
    .description(
      'Download a transfer (or one file of it) from its link into a folder, keeping relative paths, and print ' +
        'the saved paths on stdout. Each file is checked against its SHA-256; a partial file is resumed.',
    )
    .argument(
      '<link>',
      'download link: https://host/dl/<transferId> or https://host/dl/<transferId>/<fileId>',
    )
    .option('-p, --password <password>', 'password of a protected transfer')
    .option('-o, --out <dir>', 'folder to save into', '.')
    .option('--zip', 'download the whole transfer as one .zip file (counts as one download)')
    .option('-q, --quiet', 'no progress or info lines on stderr (warnings and errors still)')
    .addHelpText(
      'after',
      '\nExamples:\n  ferry get https://ferry.example.com/dl/AbCdEfGh12345678 --out ~/Downloads\n',
    )
    .action(async (link: string, opts) => {
      context.server = URL.canParse(link) ? new URL(link).origin : undefined;
      await runGet(link, { ...opts, retryForMs: retryForMs(io.env) }, io);
    });

  return program;
}

/** Runs `ferry` with `argv` (as process.argv: node, script, args…) and returns its exit code. */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const context: { server?: string } = {};
  const program = buildProgram(io, context);
  try {
    await program.parseAsync([...argv]);
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // commander printed it already
    if (io.signal.aborted) {
      io.stderr.write(
        `${io.stderr.isTTY ? '\n' : ''}ferry: interrupted; run the same command again to resume\n`,
      );
      return ExitCode.INTERRUPTED;
    }
    io.stderr.write(`ferry: ${describeError(error, context.server)}\n`);
    if (io.env.FERRY_DEBUG === '1' && error instanceof Error && error.stack)
      io.stderr.write(`${error.stack}\n`);
    return exitCodeFor(error);
  }
}

import {
  CURRENCIES,
  CUSTOM_LINK_PROBLEM_MESSAGES,
  type Currency,
  customLinkProblem,
  OPEN_GRAPH_DESCRIPTION_MAX,
  OPEN_GRAPH_TITLE_MAX,
} from '@ferry/core';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseDownloadLink } from '../links.js';
import {
  API_KEY_ENV,
  type CredentialContext,
  credentialOptions,
  extractApiKey,
  loadCredential,
  runLogin,
  runLogout,
  runWhoami,
  sessionEnded,
} from './auth.js';
import { describeError, ExitCode, exitCodeFor } from './exit-codes.js';
import { runGet } from './get.js';
import type { CliIO } from './io.js';
import { addOperatorCommands } from './operator-program.js';
import { addReceiveCommands } from './receive-program.js';
import { runSend } from './send.js';
import {
  collectEmails,
  emailAddress,
  environmentLanguage,
  languageTag,
  verificationCode,
} from './send-options.js';
import { DEFAULT_SERVER, resolveServer } from './server.js';
import { addTeamLogsCommand } from './team-logs.js';
import { addTeamCommands } from './team-program.js';
import { parseAvailableFrom } from './transfer-input.js';
import { addTransferCommands } from './transfer-program.js';
import { addWebhookCommands } from './webhook-program.js';

declare const __FERRY_VERSION__: string | undefined;

/** The CLI's version: set by the esbuild bundle from package.json. */
export const VERSION = typeof __FERRY_VERSION__ === 'string' ? __FERRY_VERSION__ : '0.0.0-dev';

export { DEFAULT_SERVER, resolveServer };

/** What the running command talks to: the server (for error messages) and the stored credential it sent. */
export interface RunContext {
  server?: string;
  credential?: CredentialContext;
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

/** `--price 12.50` → 1250 (minor units): at most two decimals, more than 0. */
function priceAmount(value: string): number {
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('expected an amount such as 12 or 12.50.');
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (minor < 50) throw new InvalidArgumentError('the smallest price is 0.50.');
  return minor;
}

/** commander parser of `--custom-link`: the rule of core customLinkProblem, said before anything is uploaded. */
function customLinkSlug(value: string): string {
  const problem = customLinkProblem(value);
  if (problem) throw new InvalidArgumentError(CUSTOM_LINK_PROBLEM_MESSAGES[problem]);
  return value;
}

/** commander parser of `--available-from`: read in local time, as `ferry transfer expire` reads its day. */
function availableFromOption(value: string): Date {
  try {
    return parseAvailableFrom(value);
  } catch {
    throw new InvalidArgumentError(
      'expected YYYY-MM-DD or YYYY-MM-DDTHH:MM in local time, e.g. 2030-01-31T09:00.',
    );
  }
}

function currencyCode(value: string): Currency {
  const code = value.trim().toUpperCase();
  if (!(CURRENCIES as readonly string[]).includes(code))
    throw new InvalidArgumentError(`expected one of ${CURRENCIES.join(', ')}.`);
  return code as Currency;
}

const EXIT_CODES = `
Exit codes:
  0  success
  1  any other error (network, server, integrity, usage; rate limited: wait and retry);
     whoami: not signed in; operator: not an operator on this server
  2  a credential missing or wrong: the password, the code confirming your --from address (send),
     the e-mail address a transfer asks downloaders for (get); sign-in failed (login: wrong e-mail
     or password, second factor needed without a terminal, address not confirmed, token refused);
     the stored session has ended (revoked or expired: run ferry login); transfers and
     transfer: not signed in (run ferry login)
  3  transfer or file not found, expired or disabled; transfer: not one of yours;
     operator: no such account or invoice
  4  download limit reached
  5  the transfer is for sale and not bought yet (get): the message gives the page to buy it at
  6  the transfer is not available yet (get): the message gives the date it opens, in local time
  130 interrupted (Ctrl-C); run the same command again to resume

Environment:
  FERRY_SERVER         default server of send, login, logout, whoami, transfers and transfer
                       (else ${DEFAULT_SERVER})
  FERRY_STATE_DIR      where resume journals, confirmed sender addresses and sign-ins are kept
                       (else $XDG_STATE_HOME/ferry or ~/.local/state/ferry)
  FERRY_RETRY_SECONDS  how long to keep retrying while the server is unreachable (default 60)
  FERRY_API_KEY        a personal or team API token (fry_…) to act with, for this call only: it wins
                       over a stored sign-in and is never stored (same as --api-key KEY, which every
                       command accepts)
  FERRY_DEBUG=1        print stack traces of errors`;

/** Builds the `ferry` command; actions write through `io` and note the server they talk to in `context`. */
export function buildProgram(io: CliIO, context: RunContext = {}): Command {
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
    .summary('upload files and folders as one transfer; print its link (or e-mail it with --to)')
    .description(
      'Upload files and folders as one transfer and print its download link (the only line on stdout).\n\n' +
        'With --to (and --from, your address) the transfer is sent by e-mail: each recipient gets a personal ' +
        'link, the printed link is yours, and stderr says how each e-mail was delivered.\n\n' +
        'The first time you send from an address, the server e-mails a 6-digit code to it to check that it is ' +
        'yours; the upload goes on meanwhile. ferry then asks for the code on the terminal, or reads one line ' +
        'from stdin when stdin is not a terminal (echo 123456 | ferry send ...). No code at hand? The transfer ' +
        'waits, uploaded, on the server: run the same command again with --verification-code CODE. Once ' +
        'confirmed, the address is remembered (in the state folder) and later sends from it need no code.\n\n' +
        'Folders are sent recursively with their own name as the first path segment. Symbolic links inside ' +
        'them are not followed. Files the service refuses (e.g. .exe, .html) are skipped with a warning.\n\n' +
        'Interrupted (Ctrl-C, lost connection, server restart)? Run the same command again: it continues ' +
        'the same transfer from where the server stopped.\n\n' +
        "Signed in (ferry login) to the server, you send as yourself, within your plan's limits: --from may be " +
        "left out (it is your account's address, which needs no code).",
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
    .option('-m, --message <text>', 'message shown to recipients (and written in their e-mail)')
    .option(
      '--to <email>',
      'send by e-mail to this recipient (repeat it, or separate addresses with commas)',
      collectEmails,
    )
    .option(
      '--from <email>',
      'your e-mail address (needed with --to unless signed in); confirmed by a code the first time',
      emailAddress,
    )
    .option('--sender-name <name>', 'your name, shown to recipients')
    .option(
      '--verification-code <code>',
      'the 6-digit code e-mailed to --from; on a second run, finishes the transfer the first run left waiting',
      verificationCode,
    )
    .option(
      '--resend-code',
      'ask for a new code for the transfer waiting for one (the old code stops working)',
    )
    .option('--notify-downloads', 'e-mail you (--from) each time someone downloads (default with --to)')
    .option('--no-notify-downloads', 'no e-mail when someone downloads')
    .option('--no-reminder', 'do not remind recipients who have not downloaded before the transfer expires')
    .option('--no-summary', 'no summary e-mail (with your link) once the transfer went out')
    .option('--require-email', 'downloaders of the link must give their e-mail address first (not with --to)')
    .option(
      '--price <amount>',
      'sell the files: downloaders pay this price (VAT excluded, e.g. 12.50) first; link transfers of a paid plan, on servers that take cards',
      priceAmount,
    )
    .option('--currency <code>', 'currency of --price: EUR, USD or GBP (default EUR)', currencyCode)
    .option(
      '--custom-link <slug>',
      'also answer at https://host/dl/<slug>: 3-64 of a-z, 0-9 and -, unique on the server; paid plans',
      customLinkSlug,
    )
    .option(
      '--available-from <when>',
      'keep the transfer closed (pending) until then: YYYY-MM-DD (start of that day) or YYYY-MM-DDTHH:MM, ' +
        'local time; no e-mail goes out and downloads wait until then; the expiry counts from it',
      availableFromOption,
    )
    .option(
      '--og-title <text>',
      `link preview: the title chat apps and social sites show for the download page instead of the ` +
        `transfer's name (one line, at most ${OPEN_GRAPH_TITLE_MAX} characters); link transfers of a paid plan, ` +
        'not shown while the transfer has a password',
    )
    .option(
      '--og-description <text>',
      'link preview: the text shown under that title instead of the file count and size (one line, at most ' +
        `${OPEN_GRAPH_DESCRIPTION_MAX} characters)`,
    )
    .option(
      '--lang <tag>',
      'language of the e-mails about the transfer, e.g. fr (default: from LC_ALL, LC_MESSAGES or LANG)',
      languageTag,
    )
    .option('-q, --quiet', 'no progress or info lines on stderr (warnings and errors still)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  link=$(ferry send report.pdf photos/ --password s3cret --max-downloads 3)\n' +
        '  ferry send report.pdf --to bob@example.com,carol@example.com --from ann@example.com\n' +
        '  ferry send report.pdf --to bob@example.com --from ann@example.com --verification-code 123456\n' +
        '  ferry send q3.pdf --custom-link q3-report --available-from 2030-04-01T09:00\n' +
        '  ferry send board/ --og-title "Board pack, March" --og-description "Minutes and figures for review"\n' +
        '\nExit codes: 0 sent; 2 the code confirming --from is missing or wrong (the transfer waits, uploaded:\n' +
        '  run the same command again with --verification-code CODE), or a password problem; 1 anything else.\n' +
        '  See ferry --help for the full list.\n',
    )
    .action(async (paths: string[], opts) => {
      const server = resolveServer(opts.server, io.env);
      context.server = server;
      const record = await loadCredential(io, server, context);
      await runSend(
        paths,
        {
          ...opts,
          lang: opts.lang ?? environmentLanguage(io.env),
          server,
          retryForMs: retryForMs(io.env),
          ...credentialOptions(record, context),
        },
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
      'download link: https://host/dl/<transferId>, https://host/dl/<transferId>/<fileId>, or a personal link ' +
        'from an e-mail (https://host/dl/<transferId>?userSecret=...; quote it in the shell)',
    )
    .option('-p, --password <password>', 'password of a protected transfer')
    .option(
      '--email <address>',
      'your e-mail address, for a transfer whose sender asks who downloads (asked on a terminal otherwise)',
      emailAddress,
    )
    .option(
      '--purchase-token <token>',
      'for files you bought: the token of your purchase (the personal link you were mailed carries it)',
    )
    .option('-o, --out <dir>', 'folder to save into', '.')
    .option('--zip', 'download the whole transfer as one .zip file (counts as one download)')
    .option('-q, --quiet', 'no progress or info lines on stderr (warnings and errors still)')
    .addHelpText(
      'after',
      '\nExamples:\n  ferry get https://ferry.example.com/dl/AbCdEfGh12345678 --out ~/Downloads\n',
    )
    .action(async (link: string, opts) => {
      context.server = URL.canParse(link) ? new URL(link).origin : undefined;
      let server: string | undefined;
      try {
        server = parseDownloadLink(link).server;
      } catch {
        server = undefined; // runGet says what is wrong with the link
      }
      // A given API key goes to the default server only (--server is not an option of get): a link to
      // another server does not receive it.
      const record = server
        ? await loadCredential(io, server, context, resolveServer(undefined, io.env))
        : null;
      await runGet(
        link,
        { ...opts, retryForMs: retryForMs(io.env), ...credentialOptions(record, context) },
        io,
      );
    });

  const serverOption = () =>
    new Option('-s, --server <url>', 'Ferry server (default: $FERRY_SERVER, else http://localhost:8080)');

  program
    .command('login')
    .summary('sign in to a server; later send and get commands act as you')
    .description(
      'Sign in to a Ferry server and keep the credential (per server, in the state folder, readable by you ' +
        'only). Later "ferry send" and "ferry get" to that server act as you: your plan\'s limits apply and ' +
        'your transfers belong to your account.\n\n' +
        'With --email and --password, ferry signs in and keeps a session of 14 days. What is not given is ' +
        'asked on a terminal (the password without echo); without a terminal the password (or token) may be ' +
        'piped into stdin as one line. An account with a second factor asks for its code on a terminal; ' +
        'without one, sign in with a personal API token instead.\n\n' +
        'With --token, ferry keeps a personal API token (fry_…, created in the web app under Account → ' +
        'Integrations) after checking it with the server. "--token" without a value asks for it (or reads it ' +
        'from stdin), keeping it out of the shell history.',
    )
    .addOption(serverOption())
    .option('--email <address>', "your account's e-mail address", emailAddress)
    .option('--password <password>', 'your password (asked without echo on a terminal if left out)')
    .option('--token [token]', 'sign in with a personal API token instead (fry_…)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  ferry login --server https://ferry.example.com\n' +
        '  ferry login --email ann@example.com --password "$FERRY_PASSWORD"\n' +
        '  printf \'%s\\n\' "$FERRY_PASSWORD" | ferry login --email ann@example.com\n' +
        '  ferry login --token fry_…\n' +
        '\nPrints "Signed in as ann@example.com (PLAN)" on stderr.\n' +
        'Exit codes: 0 signed in; 2 wrong e-mail or password, e-mail address not confirmed yet (check your\n' +
        '  inbox), a second factor asked for without a terminal, a token the server refuses, or nothing to sign\n' +
        '  in with; 1 anything else (unreachable, rate limited, no team licence left).\n',
    )
    .action(async (opts) => {
      const server = resolveServer(opts.server, io.env);
      context.server = server;
      await runLogin({ ...opts, server, retryForMs: retryForMs(io.env) }, io);
    });

  program
    .command('logout')
    .summary('end the stored session on the server and forget it')
    .description(
      'End the session "ferry login" keeps for the server (on the server too) and forget it. A personal API ' +
        'token is only forgotten here: it works until you revoke it in the web app.',
    )
    .addOption(serverOption())
    .addHelpText(
      'after',
      '\nExit codes: 0 signed out, or not signed in (it says so); 1 the server could not be told (the session\n' +
        '  is forgotten here anyway and stays valid on the server until it expires).\n',
    )
    .action(async (opts) => {
      const server = resolveServer(opts.server, io.env);
      context.server = server;
      await runLogout({ server, retryForMs: retryForMs(io.env) }, io);
    });

  program
    .command('whoami')
    .summary('print the signed-in account: "email plan"')
    .description(
      'Print the account "ferry login" signed in to the server, as the server sees it now: "email plan" ' +
        '(e.g. "ann@example.com PREMIUM"), or with --json {"email": …, "planType": …, "uid": …}.',
    )
    .addOption(serverOption())
    .option('--json', 'print {"email", "planType", "uid"} as JSON')
    .addHelpText(
      'after',
      '\nExit codes: 0 signed in; 1 not signed in (a message on stderr, nothing on stdout); 2 the stored\n' +
        '  session has ended (revoked or expired: "Your session has ended; run ferry login"); it is forgotten.\n',
    )
    .action(async (opts) => {
      const server = resolveServer(opts.server, io.env);
      context.server = server;
      await runWhoami({ server, json: opts.json, retryForMs: retryForMs(io.env) }, io, context);
    });

  addTransferCommands(program, { io, context, retryForMs });
  addReceiveCommands(program, { io, context, retryForMs });
  addOperatorCommands(program, { io, context, retryForMs });
  addTeamLogsCommand(program, { io, context, retryForMs });
  addTeamCommands(program, { io, context, retryForMs });
  addWebhookCommands(program, { io, context, retryForMs });

  return program;
}

/** Runs `ferry` with `argv` (as process.argv: node, script, args…) and returns its exit code. */
export async function main(argv: readonly string[], givenIo: CliIO): Promise<number> {
  const context: RunContext = {};
  let io = givenIo;
  try {
    // `--api-key KEY` is accepted by every command: handed over like $FERRY_API_KEY, for this run only.
    const { args, apiKey } = extractApiKey(argv.slice(2));
    if (apiKey !== undefined) io = { ...givenIo, env: { ...givenIo.env, [API_KEY_ENV]: apiKey } };
    const program = buildProgram(io, context);
    await program.parseAsync([...argv.slice(0, 2), ...args]);
    return ExitCode.OK;
  } catch (thrown) {
    if (thrown instanceof CommanderError) return thrown.exitCode; // commander printed it already
    const error = (await sessionEnded(thrown, context.credential, io)) ?? thrown;
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

import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CredentialContext } from './auth.js';
import type { CliIO } from './io.js';
import { resolveServer } from './server.js';
import {
  runAdd,
  runClone,
  runDelete,
  runExpire,
  runRename,
  runSetEnabled,
  runShow,
} from './transfer-commands.js';
import { parseStatusFilter, parseTypeFilter } from './transfer-input.js';
import { runTransfers } from './transfers.js';

/**
 * The dashboard's commands: `ferry transfers` and `ferry transfer show|rename|expire|disable|enable|delete|clone|add`.
 */

interface Deps {
  io: CliIO;
  context: { server?: string; credential?: CredentialContext };
  retryForMs: (env: NodeJS.ProcessEnv) => number;
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('expected a whole number of 1 or more.');
  return Number(value);
}

const serverOption = (withLink = true) =>
  new Option(
    '-s, --server <url>',
    `Ferry server (default: ${withLink ? "the link's own when ID is a link, else " : ''}$FERRY_SERVER, else http://localhost:8080)`,
  );

const ID_HELP = 'the transfer: its id (16 letters and digits) or its link (https://host/dl/<id>)';

const LIST_EXIT_CODES =
  '\nExit codes: 0 listed (even none); 2 not signed in ("run ferry login") or the session has ended; 1 anything\n' +
  '  else.\n';
const ONE_EXIT_CODES =
  '\nExit codes: 0 done; 2 not signed in ("run ferry login") or the session has ended; 3 no such transfer among\n' +
  '  yours (unknown, or not yours to manage); 1 anything else (a malformed date or id, a change the server\n' +
  '  refuses — e.g. an expiry past what your plan allows —, delete without --yes and without a terminal).\n';

/** Adds `transfers` and `transfer …` to the `ferry` program. */
export function addTransferCommands(program: Command, { io, context, retryForMs }: Deps): void {
  program
    .command('transfers')
    .summary('list your transfers (sent and received): a table, tab-separated lines, or --json')
    .description(
      'List the transfers of the account "ferry login" signed in to the server, newest first: sent ones and ' +
        'those received by e-mail.\n\n' +
        'On a terminal, a table: id, type, status, name, size, expiry day (local time), downloads; then the ' +
        'storage used on stderr. Otherwise one tab-separated line per transfer, for scripts: id, type, status, ' +
        'size in bytes, expiry (ISO 8601, UTC), downloads ("-" for a transfer received), name.\n\n' +
        'With --json, one JSON array of every matching transfer, each with id, type, status, statusLabel, name, ' +
        'link, createdAt, expiresAt, expired, totalSize, fileCount, recipientCount, downloadCount, direction and ' +
        'files [{id, name, size, sha256}].\n\n' +
        'Without --json or --all, the first 25 are listed (stderr says when there are more).',
    )
    .addOption(serverOption(false))
    .option('--json', 'print every matching transfer as one JSON array (all pages, unless --limit)')
    .option(
      '--search <text>',
      "only transfers whose name, a file name or a recipient's address contains text",
    )
    .option('--type <type>', 'only S1 (sent by e-mail), S2 (link) or S3 (request) transfers', parseTypeFilter)
    .option(
      '--status <status>',
      'only transfers with this status, e.g. enabled, disabled, pending, deleted (comma-separated for several)',
      parseStatusFilter,
    )
    .addOption(new Option('--sent', 'only transfers you sent').conflicts('received'))
    .addOption(new Option('--received', 'only transfers sent to you by e-mail').conflicts('sent'))
    .addOption(new Option('--limit <n>', 'at most n transfers').argParser(positiveInteger).conflicts('all'))
    .option('--all', 'every matching transfer, not only the first 25')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  ferry transfers --search report --status enabled\n' +
        "  ferry transfers --json | jq -r '.[] | select(.expired | not) | .link'\n" +
        '  ferry transfers --all | cut -f1,7\n' +
        LIST_EXIT_CODES,
    )
    .action(async (opts) => {
      const server = resolveServer(opts.server, io.env);
      context.server = server;
      await runTransfers(
        {
          server,
          json: opts.json,
          search: opts.search,
          type: opts.type,
          status: opts.status,
          direction: opts.sent ? 'sent' : opts.received ? 'received' : undefined,
          limit: opts.limit,
          all: opts.all,
          retryForMs: retryForMs(io.env),
        },
        io,
        context,
      );
    });

  const transfer = program
    .command('transfer')
    .summary(
      'show or change one of your transfers: show, rename, expire, disable, enable, delete, clone, add',
    )
    .description(
      'Show or change one transfer of the account "ferry login" signed in to the server. Each change is ' +
        "recorded in the transfer's history (ferry transfer show). ID is the transfer's id or its link; with a " +
        "link, the server is the link's own.",
    )
    .addHelpText('after', ONE_EXIT_CODES);
  const common = (opts: { server?: string }) => ({ server: opts.server, retryForMs: retryForMs(io.env) });

  transfer
    .command('show')
    .summary('the transfer: files with SHA-256, recipients with their timeline, history')
    .description(
      'Print the transfer: its settings, its files (size, SHA-256), each recipient with their timeline (e-mail ' +
        'sent, delivered, link opened, files downloaded with their bytes), the downloads made with the plain ' +
        'link, and its history (who did what, when). Times are in the local time zone. With --json, the ' +
        "server's detail as JSON.",
    )
    .argument('<id>', ID_HELP)
    .addOption(serverOption())
    .option('--json', 'print the detail as JSON')
    .addHelpText('after', ONE_EXIT_CODES)
    .action(async (id: string, opts) => {
      await runShow(id, { ...common(opts), json: opts.json }, io, context);
    });

  transfer
    .command('rename')
    .summary('give the transfer a new name ("" removes it)')
    .argument('<id>', ID_HELP)
    .argument('<name>', 'the new name (at most 255 characters; "" for no name)')
    .addOption(serverOption())
    .addHelpText('after', ONE_EXIT_CODES)
    .action(async (id: string, name: string, opts) => {
      await runRename(id, name, common(opts), io, context);
    });

  transfer
    .command('expire')
    .summary('keep the transfer until the end of a day (local time), within your plan')
    .description(
      'Set the day the transfer expires: it stays available until the end of that day (23:59:59) in the local ' +
        "time zone ($TZ). It may be at most your plan's validity (e.g. 7 days on the free plan) counted from " +
        "the transfer's creation; on that last day, the transfer expires at the last moment the plan allows.",
    )
    .argument('<id>', ID_HELP)
    .argument('<day>', 'YYYY-MM-DD, e.g. 2030-01-31')
    .addOption(serverOption())
    .addHelpText('after', ONE_EXIT_CODES)
    .action(async (id: string, day: string, opts) => {
      await runExpire(id, day, common(opts), io, context);
    });

  for (const [name, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const)
    transfer
      .command(name)
      .summary(
        enabled
          ? 'make the links of a disabled transfer work again'
          : 'stop the transfer\'s links (downloads answer "disabled", exit 3 for ferry get) until enabled',
      )
      .argument('<id>', ID_HELP)
      .addOption(serverOption())
      .addHelpText('after', ONE_EXIT_CODES)
      .action(async (id: string, opts) => {
        await runSetEnabled(id, enabled, common(opts), io, context);
      });

  transfer
    .command('delete')
    .summary('delete the transfer and its files for good (asks first, unless --yes)')
    .description(
      'Delete the transfer: its links stop working and its files are deleted from storage, for good (its name, ' +
        'file names, sizes, hashes and history stay visible to you). On a terminal ferry asks first; without ' +
        'one, it deletes only with --yes.',
    )
    .argument('<id>', ID_HELP)
    .addOption(serverOption())
    .option('-y, --yes', 'do not ask for a confirmation')
    .addHelpText('after', ONE_EXIT_CODES)
    .action(async (id: string, opts) => {
      await runDelete(id, { ...common(opts), yes: opts.yes }, io, context);
    });

  transfer
    .command('clone')
    .summary('a new transfer with the same files, copied on the server (not uploaded again)')
    .description(
      'Make a new transfer of yours with the same files, name, message, password and settings: the files are ' +
        'copied where the server stores them, not uploaded again. A transfer sent by e-mail goes to the same ' +
        "recipients. Waits until the files are copied, then prints the clone's link on stdout.",
    )
    .argument('<id>', ID_HELP)
    .addOption(serverOption())
    .option('--name <name>', 'the name of the clone ("" for none; default: the same)')
    .addHelpText('after', ONE_EXIT_CODES)
    .action(async (id: string, opts) => {
      await runClone(id, { ...common(opts), name: opts.name }, io, context);
    });

  transfer
    .command('add')
    .summary('upload more files (or folders) into a transfer you sent')
    .description(
      'Upload files and folders into one of your sent transfers: they are sent with tus (retried after a ' +
        'lost connection), checked with their SHA-256, and join the transfer once all are uploaded; until ' +
        'then nobody downloading sees them. With --notify, the recipients of an e-mail transfer are told.',
    )
    .argument('<id>', ID_HELP)
    .argument('<paths...>', 'files and folders to add')
    .addOption(serverOption())
    .option('--notify', 'tell the recipients (e-mail transfers) about the new files')
    .option('-q, --quiet', 'no progress bar')
    .addHelpText('after', ONE_EXIT_CODES)
    .action(async (id: string, paths: string[], opts) => {
      await runAdd(id, paths, { ...common(opts), notify: opts.notify, quiet: opts.quiet }, io, context);
    });
}

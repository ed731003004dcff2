import type { OperatorUser } from '@ferry/core';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type FerryClient, normalizeServerUrl } from '../client.js';
import { FerryApiError } from '../errors.js';
import type { CredentialContext } from './auth.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import {
  dayArgument,
  describePlan,
  formatInvoiceLines,
  formatInvoiceTable,
  formatUserLines,
  formatUserTable,
  invoiceJson,
  planCodeArgument,
  userJson,
} from './operator-format.js';
import { resolveServer } from './server.js';
import { signedInClient } from './signed-in.js';

/**
 * `ferry operator …`: the operator console from the command line, for the operators of a server (its
 * OPERATOR_EMAILS), signed in with `ferry login`.
 */

interface Deps {
  io: CliIO;
  context: { server?: string; credential?: CredentialContext };
  retryForMs: (env: NodeJS.ProcessEnv) => number;
}

const PAGE = 200;

function seatsArgument(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100_000)
    throw new InvalidArgumentError('expected a whole number from 1 to 100000.');
  return Number(value);
}

const notFound = (error: unknown) => error instanceof FerryApiError && error.status === 404;

/**
 * A client acting as the signed-in operator: exit 2 when not signed in; "not an operator on this server" (exit 1)
 * when the server's operator routes answer 404, as they do to anyone but its operators.
 */
async function operatorClient(io: CliIO, server: string, deps: Deps): Promise<FerryClient> {
  const client = await signedInClient(io, server, deps.context, deps.retryForMs(io.env));
  try {
    await client.operatorMe();
  } catch (error) {
    if (notFound(error)) throw new CliError(`not an operator on this server (${server})`, ExitCode.ERROR);
    throw error;
  }
  return client;
}

/** The server's refusal of a change in its own words (exit 1); a 404 is what `missing` says (exit 3). */
function refused(error: unknown, missing: string): unknown {
  if (!(error instanceof FerryApiError)) return error;
  if (error.status === 404) return new CliError(missing, ExitCode.NOT_FOUND);
  if ([400, 403, 409].includes(error.status) && !error.has('INVALID_TOKEN'))
    return new CliError(`the server refused: ${error.message}`);
  return error;
}

/** Every page of the users list matching `search`. */
async function allUsers(client: FerryClient, search: string | undefined): Promise<OperatorUser[]> {
  const users: OperatorUser[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listOperatorUsers({ search, limit: PAGE, ...(cursor ? { cursor } : {}) });
    users.push(...page.users);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return users;
}

/** The account whose address is exactly `email` (any case), found through the users search; exit 3 if none. */
export async function userByEmail(client: FerryClient, email: string, server: string): Promise<OperatorUser> {
  const wanted = email.trim().toLowerCase();
  const found = (await allUsers(client, wanted)).find((u) => u.email.toLowerCase() === wanted);
  if (!found) throw new CliError(`no account ${email} on ${server}`, ExitCode.NOT_FOUND);
  return found;
}

const serverOption = () =>
  new Option('-s, --server <url>', 'Ferry server (default: $FERRY_SERVER, else http://localhost:8080)');

const EXIT_CODES =
  '\nExit codes: 0 done; 2 not signed in ("run ferry login") or the session has ended; 3 no such account or\n' +
  '  invoice; 1 anything else: not an operator on this server (the server answers its operator routes with\n' +
  '  404 to anyone else), a change the server refuses (e.g. suspending yourself), malformed arguments.\n';

/** Adds `operator users|suspend|unsuspend|set-plan|invoices|mark-paid` to the `ferry` program. */
export function addOperatorCommands(program: Command, deps: Deps): void {
  const { io, context } = deps;
  const begin = async (opts: { server?: string }) => {
    const server = normalizeServerUrl(resolveServer(opts.server, io.env));
    context.server = server;
    return { server, client: await operatorClient(io, server, deps) };
  };
  const terminal = () => (io.stdout as { isTTY?: boolean }).isTTY === true;

  const operator = program
    .command('operator')
    .summary('run the server, as one of its operators: users, suspensions, plans, invoices')
    .description(
      'For the operators of a Ferry server (addresses in its OPERATOR_EMAILS), signed in with ferry login: find ' +
        'accounts, suspend and unsuspend them, set their plan, list invoices and mark MANUAL ones paid. To anyone ' +
        'else the server answers 404, and ferry says "not an operator on this server".',
    )
    .addHelpText('after', EXIT_CODES);

  operator
    .command('users')
    .summary('list accounts: a table, tab-separated lines, or --json')
    .description(
      'List the accounts of the server, by address. On a terminal, a table: address, plan, plan code, plan end ' +
        '(UTC day), storage used, last sign-in, state. Otherwise one tab-separated line per account: uid, ' +
        'address, plan, plan code ("-"), plan end (ISO 8601 or "-"), storage used in bytes, "active" or ' +
        '"suspended". With --json, an array of {uid, email, planType, planCode, planEndsAt, suspended}.',
    )
    .addOption(serverOption())
    .option('--search <text>', 'only accounts whose address or first name contains text (any case)')
    .option('--json', 'print the accounts as one JSON array')
    .addHelpText('after', `\nExamples:\n  ferry operator users --search @example.com\n${EXIT_CODES}`)
    .action(async (opts) => {
      const { client } = await begin(opts);
      const users = await allUsers(client, opts.search);
      if (opts.json) io.stdout.write(`${JSON.stringify(users.map(userJson), null, 2)}\n`);
      else if (terminal() && users.length > 0) io.stdout.write(formatUserTable(users));
      else io.stdout.write(formatUserLines(users));
      if (!opts.json && terminal() && users.length === 0) io.stderr.write('No account matches.\n');
    });

  for (const [name, suspend] of [
    ['suspend', true],
    ['unsuspend', false],
  ] as const)
    operator
      .command(name)
      .summary(
        suspend
          ? 'suspend an account: no sign-in, its transfers and inboxes answer ACCOUNT_SUSPENDED'
          : 'lift a suspension: the account and its transfers work again',
      )
      .description(
        suspend
          ? 'Suspend the account with this address: it cannot sign in, its sessions end, its API tokens are ' +
              'refused, and its transfers and receive points answer 403 ACCOUNT_SUSPENDED. Nothing is deleted. ' +
              'You cannot suspend yourself.'
          : 'Lift the suspension of the account with this address: it signs in again, its API tokens and ' +
              'transfers work again.',
      )
      .argument('<email>', "the account's e-mail address")
      .addOption(serverOption())
      .addHelpText('after', EXIT_CODES)
      .action(async (email: string, opts) => {
        const { server, client } = await begin(opts);
        const user = await userByEmail(client, email, server);
        const done = await (suspend ? client.suspendUser(user.uid) : client.unsuspendUser(user.uid)).catch(
          (error: unknown) => {
            throw refused(error, `no account ${email} on ${server}`);
          },
        );
        io.stderr.write(`${done.email}: ${done.suspended ? 'suspended' : 'active'}\n`);
      });

  operator
    .command('set-plan')
    .summary("set an account's plan code, with an optional last day (NONE ends the plan)")
    .description(
      'Set the plan of the account with this address to PLAN_CODE (a plan code of the catalogue, e.g. PREMIUM, ' +
        'PREMIUM_2TB, TEAM_5, CUSTOM; NONE ends the plan). --until sets the last day (UTC) of the plan; ' +
        '--seats the seats of a CUSTOM plan. Prints the plan the account has now on stderr.',
    )
    .argument('<email>', "the account's e-mail address")
    .argument('<plan-code>', 'the plan code, or NONE', planCodeArgument)
    .option('--until <day>', 'the last day of the plan, YYYY-MM-DD (UTC)', dayArgument)
    .option('--seats <n>', 'seats of a CUSTOM plan', seatsArgument)
    .addOption(serverOption())
    .addHelpText(
      'after',
      `\nExamples:\n  ferry operator set-plan ann@example.com PREMIUM --until 2026-12-31\n${EXIT_CODES}`,
    )
    .action(async (email: string, planCode: ReturnType<typeof planCodeArgument>, opts) => {
      if (opts.seats !== undefined && planCode !== 'CUSTOM')
        throw new CliError('--seats is for a CUSTOM plan only');
      const { server, client } = await begin(opts);
      const user = await userByEmail(client, email, server);
      const done = await client
        .setUserPlan(user.uid, {
          planCode,
          ...(opts.until ? { until: opts.until } : {}),
          ...(opts.seats !== undefined ? { seats: opts.seats } : {}),
        })
        .catch((error: unknown) => {
          throw refused(error, `no account ${email} on ${server}`);
        });
      io.stderr.write(`${describePlan(done)}\n`);
    });

  operator
    .command('invoices')
    .summary('list invoices: a table, tab-separated lines, or --json')
    .description(
      'List the invoices of the server, newest first. On a terminal, a table: number, address, amount due, ' +
        'status, provider, issue day. Otherwise one tab-separated line per invoice: number, address, amount due ' +
        'in minor units (cents), currency, status, issued at (ISO 8601). With --json, an array of {number, ' +
        'email, amountDue, currency, status, issuedAt}.',
    )
    .addOption(serverOption())
    .option('--open', 'only invoices still to be paid')
    .option('--json', 'print the invoices as one JSON array')
    .addHelpText('after', EXIT_CODES)
    .action(async (opts) => {
      const { client } = await begin(opts);
      const { invoices } = await client.listOperatorInvoices({ open: opts.open === true ? true : undefined });
      if (opts.json) io.stdout.write(`${JSON.stringify(invoices.map(invoiceJson), null, 2)}\n`);
      else if (terminal() && invoices.length > 0) io.stdout.write(formatInvoiceTable(invoices));
      else io.stdout.write(formatInvoiceLines(invoices));
      if (!opts.json && terminal() && invoices.length === 0) io.stderr.write('No invoice.\n');
    });

  operator
    .command('mark-paid')
    .summary('mark a MANUAL invoice paid (a bank transfer arrived): its plan starts')
    .argument('<invoice-number>', 'the invoice number, e.g. FRY-2026-000001')
    .addOption(serverOption())
    .addHelpText('after', EXIT_CODES)
    .action(async (number: string, opts) => {
      const { server, client } = await begin(opts);
      const paid = await client.markInvoicePaid(number.trim()).catch((error: unknown) => {
        throw refused(error, `no invoice ${number} on ${server}`);
      });
      io.stderr.write(`${paid.number}: ${paid.status} (${paid.email})\n`);
    });
}

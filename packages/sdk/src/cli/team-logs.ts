import { SECURITY_ACTIONS, type SecurityAction, type SecurityLogEntry } from '@ferry/core';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { normalizeServerUrl } from '../client.js';
import { FerryApiError } from '../errors.js';
import type { CredentialContext } from './auth.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { dayArgument } from './operator-format.js';
import { resolveServer } from './server.js';
import { signedInClient } from './signed-in.js';
import { printable } from './transfer-format.js';

/** `ferry team logs`: the security log of the signed-in manager's team (or of a USER_MANAGER member's). */

interface Deps {
  io: CliIO;
  context: { server?: string; credential?: CredentialContext };
  retryForMs: (env: NodeJS.ProcessEnv) => number;
}

const PAGE = 500;

/** One entry as `ferry team logs --json` prints it. */
export interface TeamLogLine {
  at: string;
  actor: string | null;
  action: SecurityAction;
  ip: string | null;
  target: string | null;
}

export function actionArgument(value: string): SecurityAction {
  const action = SECURITY_ACTIONS.find((a) => a === value.trim());
  if (!action) throw new InvalidArgumentError(`expected one of: ${SECURITY_ACTIONS.join(', ')}.`);
  return action;
}

export const teamLogLine = (e: SecurityLogEntry): TeamLogLine => ({
  at: e.at,
  actor: e.actor,
  action: e.action,
  ip: e.ip,
  target: e.target,
});

const cell = (text: string | null) => (text ? printable(text) : '-');

/** For scripts: one tab-separated line per entry — time (ISO 8601, UTC), actor, action, IP, target ("-": none). */
export function formatTeamLogLines(lines: readonly TeamLogLine[]): string {
  return lines
    .map((l) => `${[l.at, cell(l.actor), l.action, cell(l.ip), cell(l.target)].join('\t')}\n`)
    .join('');
}

/** On a terminal: a table, time to the second (UTC). */
export function formatTeamLogTable(lines: readonly TeamLogLine[]): string {
  const columns = ['TIME (UTC)', 'ACTOR', 'ACTION', 'IP', 'TARGET'];
  const rows = lines.map((l) => [
    l.at.slice(0, 19).replace('T', ' '),
    cell(l.actor),
    l.action,
    cell(l.ip),
    cell(l.target),
  ]);
  const all = [columns, ...rows];
  const widths = columns.map((_, i) => Math.max(...all.map((r) => Array.from(r[i] ?? '').length)));
  return all
    .map((r) =>
      `${r.map((c, i) => c + ' '.repeat((widths[i] ?? 0) - Array.from(c).length)).join('  ')}`.trimEnd(),
    )
    .map((l) => `${l}\n`)
    .join('');
}

export interface TeamLogsOptions {
  server: string;
  json?: boolean;
  since?: string;
  action?: SecurityAction;
  retryForMs: number;
}

export async function runTeamLogs(
  options: TeamLogsOptions,
  io: CliIO,
  context: { credential?: CredentialContext },
): Promise<void> {
  const server = normalizeServerUrl(options.server);
  const client = await signedInClient(io, server, context, options.retryForMs);
  const entries: SecurityLogEntry[] = [];
  try {
    const me = await client.me();
    if (!me.user)
      throw new CliError(`${server} does not see you signed in; run ferry login`, ExitCode.CREDENTIAL);
    const teamId = me.managerId ?? me.user.uid;
    let cursor: string | undefined;
    do {
      const page = await client.listSecurityLogs(teamId, {
        from: options.since,
        action: options.action,
        cursor,
        limit: PAGE,
      });
      entries.push(...page.entries);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  } catch (error) {
    if (error instanceof FerryApiError && error.has('NOT_FOUND'))
      throw new CliError(
        "the team's security log is for its manager and members with the USER_MANAGER permission",
        ExitCode.NOT_FOUND,
      );
    if (error instanceof FerryApiError && error.has('UNAUTHORIZED'))
      throw new CliError(`${server} does not see you signed in; run ferry login`, ExitCode.CREDENTIAL);
    throw error;
  }
  const lines = entries.map(teamLogLine);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(lines, null, 2)}\n`);
    return;
  }
  const terminal = (io.stdout as { isTTY?: boolean }).isTTY === true;
  if (terminal && lines.length === 0) io.stderr.write('No entry matches.\n');
  else io.stdout.write(terminal ? formatTeamLogTable(lines) : formatTeamLogLines(lines));
}

/** Adds `ferry team logs` to the `team` command group (made here when no other part made it first). */
export function addTeamLogsCommand(program: Command, { io, context, retryForMs }: Deps): void {
  const team =
    program.commands.find((c) => c.name() === 'team') ??
    program.command('team').summary('your team: its members and its security log (managers)');
  team
    .command('logs')
    .summary("the team's security log: a table, tab-separated lines, or --json")
    .description(
      'Print the security log of your team (you are its manager, or a member with USER_MANAGER), newest first. ' +
        'On a terminal, a table; otherwise one tab-separated line per entry: time (ISO 8601, UTC), actor, ' +
        'action, IP address, target ("-" for none). With --json, one array of {at, actor, action, ip, target}. ' +
        'The actions are a fixed list (docs/api.md, "Security log").',
    )
    .addOption(
      new Option('-s, --server <url>', 'Ferry server (default: $FERRY_SERVER, else http://localhost:8080)'),
    )
    .option('--json', 'print every entry as one JSON array of {at, actor, action, ip, target}')
    .option('--since <day>', 'only entries from this day on (YYYY-MM-DD, UTC)', dayArgument)
    .option('--action <action>', `only this action (${SECURITY_ACTIONS.join(', ')})`, actionArgument)
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  ferry team logs --since 2026-11-01 --action sign-in-failed\n' +
        "  ferry team logs --json | jq -r '.[] | .ip' | sort | uniq -c\n" +
        '\nExit codes: 0 listed (even none); 2 not signed in ("run ferry login"); 3 not a manager of a team\n' +
        '  (nor a member with USER_MANAGER); 1 anything else.\n',
    )
    .action(async (opts) => {
      const server = resolveServer(opts.server, io.env);
      context.server = server;
      await runTeamLogs(
        { server, json: opts.json, since: opts.since, action: opts.action, retryForMs: retryForMs(io.env) },
        io,
        context,
      );
    });
}

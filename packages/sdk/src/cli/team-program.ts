import { PERMISSIONS, type Permission } from '@ferry/core';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type FerryClient, normalizeServerUrl } from '../client.js';
import { FerryApiError } from '../errors.js';
import type { CredentialContext } from './auth.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { resolveServer } from './server.js';
import { signedInClient } from './signed-in.js';

/**
 * `ferry team …`: a team's members from the command line, signed in as its manager (or a member with
 * USER_MANAGER). Other parts add their own subcommands to the same `team` group (e.g. `ferry team logs`).
 */

interface Deps {
  io: CliIO;
  context: { server?: string; credential?: CredentialContext };
  retryForMs: (env: NodeJS.ProcessEnv) => number;
}

function permissionArgument(value: string, previous: Permission[] = []): Permission[] {
  const p = value.trim().toUpperCase();
  if (!(PERMISSIONS as readonly string[]).includes(p))
    throw new InvalidArgumentError(`expected one of ${PERMISSIONS.join(', ')}.`);
  return [...previous, p as Permission];
}

const serverOption = () =>
  new Option('-s, --server <url>', 'Ferry server (default: $FERRY_SERVER, else http://localhost:8080)');

const EXIT_CODES =
  '\nExit codes: 0 done; 2 not signed in ("run ferry login") or the session has ended; 3 no such member;\n' +
  '  1 anything else: not a team manager (nor USER_MANAGER) on a team plan, an address refused (invite).\n';

/** The server's refusal in its own words (exit 1); a 404 says the caller manages no team there. */
function refused(error: unknown): unknown {
  if (!(error instanceof FerryApiError) || error.has('INVALID_TOKEN')) return error;
  if (error.status === 404) return new CliError('you manage no team on this server');
  if ([400, 403, 409].includes(error.status)) return new CliError(`the server refused: ${error.message}`);
  return error;
}

/** The signed-in account's team: its own uid for a manager, its manager's for a member. */
async function teamOf(client: FerryClient): Promise<string> {
  const me = await client.me();
  if (!me.user) throw new CliError('not signed in: run ferry login', ExitCode.CREDENTIAL);
  return me.managerId ?? me.user.uid;
}

/** Finds or makes the `team` command group (other parts add theirs to it), then adds invite, members, remove. */
export function addTeamCommands(program: Command, deps: Deps): void {
  const { io, context } = deps;
  const begin = async (opts: { server?: string }) => {
    const server = normalizeServerUrl(resolveServer(opts.server, io.env));
    context.server = server;
    const client = await signedInClient(io, server, context, deps.retryForMs(io.env));
    return { client, teamId: await teamOf(client) };
  };
  const team =
    program.commands.find((c) => c.name() === 'team') ??
    program
      .command('team')
      .summary('manage your team: members, invitations')
      .description('For a team manager (or a member with USER_MANAGER), signed in with ferry login.');

  team
    .command('invite')
    .summary('invite members by e-mail: one line per address with its result')
    .description(
      'Invite each EMAIL to the team: the server mails each a one-time link valid 7 days. Prints one line per ' +
        'address: the address, a space, then invited, already-member, invalid, ALREADY_IN_TEAM (a member of ' +
        'another team) or MAX_LICENCES_REACHED (every seat is taken). Pending invitations hold a seat.',
    )
    .argument('<email...>', 'addresses to invite')
    .option(
      '-p, --permission <permission>',
      `a permission for every invited address (${PERMISSIONS.join(', ')}); repeat for more`,
      permissionArgument,
    )
    .addOption(serverOption())
    .addHelpText('after', EXIT_CODES.replace('an address refused (invite)', 'any address not invited'))
    .action(async (emails: string[], opts: { permission?: Permission[]; server?: string }) => {
      const { client, teamId } = await begin(opts);
      const answer = await client
        .inviteTeamMembers(teamId, { emails, permissions: opts.permission ?? [] })
        .catch((error: unknown) => {
          throw refused(error);
        });
      for (const r of answer.results) io.stdout.write(`${r.email} ${r.result}\n`);
      const failed = answer.results.filter((r) => r.result !== 'invited').length;
      if (failed > 0) throw new CliError(`${failed} of ${answer.results.length} addresses not invited`);
    });

  team
    .command('members')
    .summary('list the team: members and pending invitations')
    .description(
      'List the team: one tab-separated line per account or pending invitation: e-mail, status (invited, ' +
        'active, disabled), permissions (comma-separated), uid ("-" for an invitation). With --json, ' +
        '[{email, uid, status, permissions}].',
    )
    .option('--json', 'print [{email, uid, status, permissions}] as JSON')
    .addOption(serverOption())
    .addHelpText('after', EXIT_CODES)
    .action(async (opts: { json?: boolean; server?: string }) => {
      const { client, teamId } = await begin(opts);
      const { members } = await client.teamMembers(teamId).catch((error: unknown) => {
        throw refused(error);
      });
      if (opts.json) {
        const rows = members.map((m) => ({
          email: m.email,
          uid: m.uid,
          status: m.status,
          permissions: m.permissions,
        }));
        io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      for (const m of members)
        io.stdout.write(`${m.email}\t${m.status}\t${m.permissions.join(',')}\t${m.uid ?? '-'}\n`);
    });

  team
    .command('remove')
    .summary('remove a member from the team (or withdraw a pending invitation)')
    .description(
      'The member leaves the team: their account becomes a free account of their own and keeps its transfers; ' +
        'their upload inboxes move to the manager. For a pending invitation, the invitation is withdrawn.',
    )
    .argument('<email>', "the member's address")
    .addOption(serverOption())
    .addHelpText('after', EXIT_CODES)
    .action(async (email: string, opts: { server?: string }) => {
      const { client, teamId } = await begin(opts);
      try {
        const { members } = await client.teamMembers(teamId);
        const wanted = email.trim().toLowerCase();
        const found = members.find((m) => m.email.toLowerCase() === wanted);
        if (!found) throw new CliError(`no member ${email} in your team`, ExitCode.NOT_FOUND);
        if (found.isManager) throw new CliError("the team's manager cannot be removed");
        if (found.uid) await client.removeTeamMember(teamId, found.uid);
        else if (found.invitationId) await client.withdrawTeamInvitation(teamId, found.invitationId);
        io.stdout.write(`${found.email} removed\n`);
      } catch (error) {
        throw refused(error);
      }
    });
}

import { WEBHOOK_EVENTS, type WebhookEvent } from '@ferry/core';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { normalizeServerUrl } from '../client.js';
import { FerryApiError } from '../errors.js';
import type { CredentialContext } from './auth.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { resolveServer } from './server.js';
import { signedInClient } from './signed-in.js';

/** `ferry webhook add|list|remove`: the signed-in account's webhooks (a token needs the admin scope). */

interface Deps {
  io: CliIO;
  context: { server?: string; credential?: CredentialContext };
  retryForMs: (env: NodeJS.ProcessEnv) => number;
}

function eventArgument(value: string, previous: WebhookEvent[] = []): WebhookEvent[] {
  const event = value.trim().toUpperCase();
  if (!(WEBHOOK_EVENTS as readonly string[]).includes(event))
    throw new InvalidArgumentError(`expected one of ${WEBHOOK_EVENTS.join(', ')}.`);
  return previous.includes(event as WebhookEvent) ? previous : [...previous, event as WebhookEvent];
}

/** The server's refusal in its own words (exit 1); a 404 is "no such webhook" (exit 3). */
function refused(error: unknown): unknown {
  if (!(error instanceof FerryApiError)) return error;
  if (error.status === 404) return new CliError('no such webhook among yours', ExitCode.NOT_FOUND);
  if ([400, 403, 409].includes(error.status) && !error.has('INVALID_TOKEN'))
    return new CliError(`the server refused: ${error.message}`);
  return error;
}

const serverOption = () =>
  new Option('-s, --server <url>', 'Ferry server (default: $FERRY_SERVER, else http://localhost:8080)');

export function addWebhookCommands(program: Command, deps: Deps): void {
  const { io, context } = deps;
  const begin = async (opts: { server?: string }) => {
    const server = normalizeServerUrl(resolveServer(opts.server, io.env));
    context.server = server;
    return signedInClient(io, server, context, deps.retryForMs(io.env));
  };

  const webhook = program
    .command('webhook')
    .summary('manage the webhooks told of your transfers’ events')
    .description(
      'Webhooks of the signed-in account (or of its team, for a manager): each event of your transfers is POSTed ' +
        'to the URL, signed with the webhook secret in the Ferry-Signature header. With an API token, it needs ' +
        'the admin scope.',
    );

  webhook
    .command('add')
    .summary('add a webhook; print its id and its secret (shown once)')
    .argument('<url>', 'an https:// URL on a public address')
    .option(
      '--event <event>',
      `an event to send (repeatable; default all): ${WEBHOOK_EVENTS.join(', ')}`,
      eventArgument,
    )
    .option('--team', 'for the transfers of your whole team (a team manager only)')
    .option('--json', 'print {id, secret}')
    .addOption(serverOption())
    .action(async (url: string, opts) => {
      const client = await begin(opts);
      const created = await client
        .createWebhook({
          url,
          ...(opts.event ? { events: opts.event } : {}),
          ...(opts.team ? { team: true } : {}),
        })
        .catch((error) => {
          throw refused(error);
        });
      if (opts.json) io.stdout.write(`${JSON.stringify({ id: created.id, secret: created.secret })}\n`);
      else {
        io.stdout.write(`${created.id}\n${created.secret}\n`);
        io.stderr.write('Keep the secret (second line): it is not shown again.\n');
      }
    });

  webhook
    .command('list')
    .summary('list your webhooks: id, URL, events')
    .option('--json', 'print [{id, url, events, team, createdAt}]')
    .addOption(serverOption())
    .action(async (opts) => {
      const client = await begin(opts);
      const hooks = await client.listWebhooks();
      if (opts.json) io.stdout.write(`${JSON.stringify(hooks)}\n`);
      else
        for (const h of hooks)
          io.stdout.write(
            `${h.id}\t${h.url}\t${h.events.length === WEBHOOK_EVENTS.length ? 'all' : h.events.join(',')}${h.team ? '\tteam' : ''}\n`,
          );
    });

  webhook
    .command('remove')
    .summary('remove a webhook')
    .argument('<id>', 'the webhook id (ferry webhook list)')
    .addOption(serverOption())
    .action(async (id: string, opts) => {
      const client = await begin(opts);
      await client.removeWebhook(id).catch((error) => {
        throw refused(error);
      });
      io.stderr.write(`Removed webhook ${id}\n`);
    });
}

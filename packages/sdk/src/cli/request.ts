import type { InboxView, ReceiveLinkMode } from '@ferry/core';
import type { FerryClient } from '../client.js';
import { FerryApiError } from '../errors.js';
import type { CredentialContext } from './auth.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { localTimeZone } from './send-options.js';
import { signedInClient } from './signed-in.js';

/** What the receive commands share: the server, the stored sign-in, how long to retry. */
export interface ReceiveCommandContext {
  server: string;
  context: { credential?: CredentialContext };
  retryForMs: number;
}

/** Options of `ferry request`. */
export interface RequestOptions {
  to?: string[];
  subject?: string;
  message?: string;
  password?: string;
  expiresInDays?: number;
  senderName?: string;
  customId?: string;
  allow?: string[];
  notifyUploads?: boolean;
  reminder?: boolean;
  lang?: string;
  quiet?: boolean;
}

/** A refusal of a receive command by the server, in words (exit 2 not signed in, 3 unknown inbox, else 1). */
function refused(error: unknown, server: string): unknown {
  if (!(error instanceof FerryApiError)) return error;
  if (error.has('UNAUTHORIZED'))
    return new CliError(`${server} does not see you signed in; run ferry login`, ExitCode.CREDENTIAL);
  if (error.has('NOT_FOUND')) return new CliError('no such inbox among yours', ExitCode.NOT_FOUND);
  const setting = typeof error.details?.setting === 'string' ? ` (${error.details.setting})` : '';
  if (['CONFLICT', 'VALIDATION_FAILED', 'FORBIDDEN'].some((c) => error.has(c)))
    return new CliError(`the server refused: ${error.message}${setting}`);
  return error;
}

async function withClient<T>(
  io: CliIO,
  c: ReceiveCommandContext,
  work: (client: FerryClient) => Promise<T>,
): Promise<T> {
  const client = await signedInClient(io, c.server, c.context, c.retryForMs);
  try {
    return await work(client);
  } catch (error) {
    throw refused(error, client.server);
  }
}

/**
 * `ferry request`: asks for files. With `--to`, each address gets its own upload link by e-mail (S1);
 * without, one link (S2). The request's link is the only line on stdout.
 */
export async function runRequest(
  options: RequestOptions,
  io: CliIO,
  c: ReceiveCommandContext,
): Promise<void> {
  const linkMode: ReceiveLinkMode = options.to && options.to.length > 0 ? 'S1' : 'S2';
  const request = await withClient(io, c, (client) =>
    client.createReceiveRequest({
      linkMode,
      recipients: linkMode === 'S1' ? options.to : undefined,
      subject: options.subject,
      message: options.message,
      password: options.password,
      expiresInDays: options.expiresInDays,
      senderName: options.senderName,
      customId: options.customId,
      allowedExtensions: options.allow,
      uploadNotification: options.notifyUploads === false ? false : undefined,
      expiryReminder: options.reminder === false ? false : undefined,
      locale: options.lang,
      timeZone: localTimeZone(),
    }),
  );
  if (!options.quiet) {
    const asked = request.recipients.map((r) => r.email);
    io.stderr.write(
      `ferry: request open until ${request.expiresAt}` +
        (asked.length > 0 ? `; each of ${asked.join(', ')} gets a personal upload link by e-mail` : '') +
        (request.allowedExtensions.length > 0
          ? `; accepts ${request.allowedExtensions.map((e) => `.${e}`).join(', ')} only`
          : '') +
        '\n',
    );
  }
  io.stdout.write(`${request.link}\n`);
}

/** `ferry inbox list`: one tab-separated line per inbox (slug, on/off, mode, uploads, link), or --json. */
export async function runInboxList(options: { json?: boolean }, io: CliIO, c: ReceiveCommandContext) {
  const list = await withClient(io, c, (client) => client.listInboxes());
  if (options.json) {
    io.stdout.write(`${JSON.stringify(list.items, null, 2)}\n`);
    return;
  }
  for (const i of list.items)
    io.stdout.write(
      `${[i.slug, i.enabled ? 'on' : 'off', i.linkMode, String(i.uploadCount), i.link, i.title].join('\t')}\n`,
    );
  if (!list.inboxUpload.allowed)
    io.stderr.write('ferry: receiving into inboxes is turned off for your account\n');
}

/** `ferry inbox create SLUG --title T`: prints the inbox's link. */
export async function runInboxCreate(
  slug: string,
  options: { title?: string; s1?: boolean; password?: string; allow?: string[]; off?: boolean },
  io: CliIO,
  c: ReceiveCommandContext,
) {
  const inbox = await withClient(io, c, (client) =>
    client.createInbox({
      slug,
      title: options.title ?? slug,
      linkMode: options.s1 ? 'S1' : 'S2',
      password: options.password,
      allowedExtensions: options.allow,
      enabled: !options.off,
    }),
  );
  io.stdout.write(`${inbox.link}\n`);
}

/** `ferry inbox enable|disable SLUG`: switches an inbox on or off. */
export async function runInboxSwitch(
  slug: string,
  enabled: boolean,
  io: CliIO,
  c: ReceiveCommandContext,
): Promise<void> {
  const inbox: InboxView = await withClient(io, c, async (client) => {
    const found = (await client.listInboxes()).items.find(
      (i) => i.slug === slug.toLowerCase() || i.inboxId === slug,
    );
    if (!found) throw new CliError(`no inbox ${slug} among yours`, ExitCode.NOT_FOUND);
    return client.updateInbox(found.inboxId, { enabled });
  });
  io.stderr.write(`ferry: inbox ${inbox.slug} is ${inbox.enabled ? 'on' : 'off'}\n`);
}

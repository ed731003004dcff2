import { formatSize, type TransferDetail } from '@ferry/core';
import { type FerryClient, normalizeServerUrl } from '../client.js';
import { FerryApiError } from '../errors.js';
import type { CredentialContext } from './auth.js';
import { CliError } from './exit-codes.js';
import type { CliIO } from './io.js';
import { Asker } from './prompt.js';
import { resolveServer } from './server.js';
import { dashboardError, signedInClient } from './signed-in.js';
import { formatTransferDetail, printable } from './transfer-format.js';
import {
  isoWithOffset,
  localDay,
  localTime,
  parseExpiryDay,
  parseTransferRef,
  type TransferRef,
} from './transfer-input.js';

/** `ferry transfer show|rename|expire|disable|enable|delete ID …`: one transfer of the signed-in user. */

/** What every `ferry transfer …` command is given. */
export interface TransferCommandOptions {
  /** `--server`, as typed (undefined: the link's server, else $FERRY_SERVER, else the default). */
  server?: string;
  retryForMs: number;
}

/** The server a transfer command talks to: `--server`, else the link's own, else $FERRY_SERVER or the default. */
export function serverForRef(ref: TransferRef, flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (ref.server && flag && normalizeServerUrl(flag) !== normalizeServerUrl(ref.server))
    throw new CliError(`the link is on ${ref.server}, but --server says ${normalizeServerUrl(flag)}`);
  return normalizeServerUrl(ref.server ?? resolveServer(flag, env));
}

/** One command on one transfer: parses the id or link, signs in, and says failures in words. */
class TransferRun {
  readonly ref: TransferRef;
  readonly server: string;

  constructor(
    id: string,
    private readonly options: TransferCommandOptions,
    readonly io: CliIO,
    private readonly context: { server?: string; credential?: CredentialContext },
  ) {
    this.ref = parseTransferRef(id);
    this.server = serverForRef(this.ref, options.server, io.env);
    context.server = this.server;
  }

  get id(): string {
    return this.ref.transferId;
  }

  async call<T>(action: (client: FerryClient, id: string) => Promise<T>): Promise<T> {
    const client = await signedInClient(this.io, this.server, this.context, this.options.retryForMs);
    try {
      return await action(client, this.id);
    } catch (error) {
      throw dashboardError(error, this.server, this.id);
    }
  }

  say(line: string): void {
    this.io.stderr.write(`${line}\n`);
  }
}

type Context = { server?: string; credential?: CredentialContext };

/** `ferry transfer show ID [--json]`. */
export async function runShow(
  id: string,
  options: TransferCommandOptions & { json?: boolean },
  io: CliIO,
  context: Context,
): Promise<void> {
  const run = new TransferRun(id, options, io, context);
  const detail = await run.call((c, t) => c.transferDetail(t));
  io.stdout.write(options.json ? `${JSON.stringify(detail, null, 2)}\n` : formatTransferDetail(detail));
}

/** The most characters a transfer's name may have (the server's rule, checked before asking it). */
export const MAX_NAME_LENGTH = 255;

/** `ferry transfer rename ID NAME` (an empty NAME removes the name). */
export async function runRename(
  id: string,
  name: string,
  options: TransferCommandOptions,
  io: CliIO,
  context: Context,
): Promise<void> {
  const run = new TransferRun(id, options, io, context);
  const wanted = name.trim();
  if (wanted.length > MAX_NAME_LENGTH)
    throw new CliError(
      `the name is ${wanted.length} characters long; at most ${MAX_NAME_LENGTH} are allowed`,
    );
  const detail = await run.call((c, t) => c.updateTransfer(t, { name: wanted === '' ? null : wanted }));
  run.say(detail.name ? `Renamed ${run.id} to "${printable(detail.name)}"` : `${run.id} has no name now`);
}

/**
 * `ferry transfer expire ID YYYY-MM-DD`: the transfer stays until the end of that day, local time. On the last
 * day the plan allows, that is the last moment it allows (as the web app does).
 */
export async function runExpire(
  id: string,
  day: string,
  options: TransferCommandOptions,
  io: CliIO,
  context: Context,
  now: () => Date = () => new Date(),
): Promise<void> {
  const end = parseExpiryDay(day);
  const run = new TransferRun(id, options, io, context);
  if (end.getTime() <= now().getTime())
    throw new CliError(`${day} is over already (local time): give a day from today on`);
  const detail = await run.call(async (client, transferId) => {
    try {
      return await client.updateTransfer(transferId, { expiresAt: isoWithOffset(end) });
    } catch (error) {
      const latest = latestAllowed(error);
      if (!latest) throw error;
      if (localDay(latest) === localDay(end))
        return client.updateTransfer(transferId, { expiresAt: latest.toISOString() });
      const max = (error as FerryApiError).limitErrors.find((l) => l.limit === 'fileValidityInDays')?.max;
      throw new CliError(
        `${day} is later than your plan allows: a transfer is kept at most ${max ?? '?'} days from its ` +
          `creation, so ${run.id} can expire on ${localTime(latest)} (local time) at the latest`,
      );
    }
  });
  const at = new Date(detail.expiresAt);
  const capped = at.getTime() < end.getTime() ? ' (the last moment your plan allows)' : '';
  run.say(`${run.id} now expires on ${localTime(at)} local time${capped}`);
}

/** The latest expiry a LIMIT_EXCEEDED answer names (fileValidityInDays, `details.latest`), else null. */
function latestAllowed(error: unknown): Date | null {
  if (!(error instanceof FerryApiError)) return null;
  if (!error.limitErrors.some((l) => l.limit === 'fileValidityInDays')) return null;
  const latest = Date.parse(String(error.details?.latest ?? ''));
  return Number.isFinite(latest) ? new Date(latest) : null;
}

/** `ferry transfer disable ID` / `enable ID`. */
export async function runSetEnabled(
  id: string,
  enabled: boolean,
  options: TransferCommandOptions,
  io: CliIO,
  context: Context,
): Promise<void> {
  const run = new TransferRun(id, options, io, context);
  await run.call((c, t) => (enabled ? c.enableTransfer(t) : c.disableTransfer(t)));
  run.say(
    enabled
      ? `${run.id} is enabled: its links work again`
      : `${run.id} is disabled: its links answer "disabled" until you enable it again`,
  );
}

/** `ferry transfer delete ID [--yes]`: asks first on a terminal; without one, only with --yes. */
export async function runDelete(
  id: string,
  options: TransferCommandOptions & { yes?: boolean },
  io: CliIO,
  context: Context,
): Promise<void> {
  const run = new TransferRun(id, options, io, context);
  const asker = new Asker(io);
  if (!options.yes && !asker.interactive)
    throw new CliError(
      `not deleting ${run.id} without a confirmation: pass --yes (its files are deleted for good)`,
    );
  if (!options.yes) {
    const detail = await run.call((c, t) => c.transferDetail(t));
    try {
      const answer = await asker.ask(`Delete ${describe(detail)}? Its files are deleted for good. [y/N]`);
      if (!answer || !/^y(es)?$/i.test(answer)) {
        run.say(`Not deleted: ${run.id} stays as it is`);
        return;
      }
    } finally {
      asker.close();
    }
  }
  await run.call((c, t) => c.deleteTransfer(t));
  run.say(`Deleted ${run.id}: its links no longer work and its files are deleted from storage`);
}

function describe(d: TransferDetail): string {
  const name = d.name ? ` "${printable(d.name)}"` : '';
  const files = `${d.fileCount} file${d.fileCount === 1 ? '' : 's'}, ${formatSize(d.totalSize)}`;
  return `${d.transferId}${name} (${files}, ${d.statusLabel})`;
}

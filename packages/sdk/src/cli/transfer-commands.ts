import { formatSize, type TransferDetail } from '@ferry/core';
import { type FerryClient, normalizeServerUrl } from '../client.js';
import { FerryApiError } from '../errors.js';
import { sha256File } from '../node/hash.js';
import type { CredentialContext } from './auth.js';
import { CliError } from './exit-codes.js';
import type { CliIO } from './io.js';
import { matchServerFiles } from './journal-upload.js';
import { ProgressReporter } from './progress.js';
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
import { collectFiles, emptyFileWarnings } from './walk.js';

/** `ferry transfer show|rename|expire|disable|enable|delete|clone|add ID …`: one transfer of the signed-in user. */

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

/** How often `ferry transfer clone` asks whether the clone's files are copied. */
export const CLONE_POLL_MS = 1000;

/**
 * `ferry transfer clone ID [--name NAME]`: a new transfer with the same files, copied where they are stored (not
 * uploaded again); waits until they are, then prints the clone's link on stdout.
 */
export async function runClone(
  id: string,
  options: TransferCommandOptions & { name?: string; pollMs?: number },
  io: CliIO,
  context: Context,
): Promise<void> {
  const run = new TransferRun(id, options, io, context);
  const name = options.name?.trim();
  if (name !== undefined && name.length > MAX_NAME_LENGTH)
    throw new CliError(`the name is ${name.length} characters long; at most ${MAX_NAME_LENGTH} are allowed`);
  let clone = await run.call((c, t) =>
    c.cloneTransfer(t, name === undefined ? {} : { name: name === '' ? null : name }),
  );
  run.say(`Cloned ${run.id} into ${clone.transferId}; copying its files…`);
  while (clone.status === 'CLONING') {
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? CLONE_POLL_MS));
    const cloneId = clone.transferId;
    clone = await run.call((c) => c.transferDetail(cloneId));
  }
  if (clone.status !== 'ENABLED')
    throw new CliError(
      `the clone ${clone.transferId} is ${clone.statusLabel}: its files could not be copied`,
    );
  run.say(`${clone.transferId} is ready: ${describe(clone)}`);
  io.stdout.write(`${clone.link}\n`);
}

/**
 * `ferry transfer add ID PATH… [--notify]`: uploads files and folders into a sent transfer (tus, retried and
 * resumed within the run; each file's SHA-256 checked end to end), then adds them; with --notify, the S1
 * recipients are told by e-mail.
 */
export async function runAdd(
  id: string,
  paths: readonly string[],
  options: TransferCommandOptions & { notify?: boolean; quiet?: boolean },
  io: CliIO,
  context: Context,
): Promise<void> {
  const run = new TransferRun(id, options, io, context);
  const { files, skipped } = await collectFiles(paths);
  for (const s of skipped) run.say(`ferry: skipping ${s.path}: ${s.reason}`);
  if (files.length === 0) throw new CliError('nothing to add: no file is left after skipping');
  for (const line of emptyFileWarnings(files)) run.say(line);
  const detail = await run.call(async (client, transferId) => {
    const added = await client.addFiles(
      transferId,
      files.map((f) => ({ name: f.name, size: f.size, relativePath: f.relativePath })),
    );
    const ids = matchServerFiles(files, added.files);
    const ui = new ProgressReporter(io.stderr, { quiet: options.quiet });
    ui.setTotal(files.reduce((sum, f) => sum + f.size, 0));
    const checked: Array<{ id: string; sha256: string }> = [];
    try {
      for (const [i, file] of files.entries()) {
        const fileId = ids[i]!;
        ui.setLabel(file.relativePath ?? file.name);
        const [sha256] = await Promise.all([
          sha256File(file.absPath, { signal: io.signal }),
          client.uploadFile({
            path: file.absPath,
            endpoint: added.uploadEndpoint,
            transferId,
            fileId,
            uploadToken: added.uploadToken,
            signal: io.signal,
            onProgress: (sent) => ui.update(fileId, sent),
          }),
        ]);
        checked.push({ id: fileId, sha256 });
      }
    } finally {
      ui.finish();
    }
    return client.completeAddition(transferId, added.additionId, {
      files: checked,
      notifyRecipients: options.notify === true,
    });
  });
  const count = `${files.length} file${files.length === 1 ? '' : 's'}`;
  const told = options.notify && detail.type === 'S1' ? '; its recipients are told by e-mail' : '';
  run.say(`Added ${count} to ${run.id}: ${describe(detail)}${told}`);
}

function describe(d: TransferDetail): string {
  const name = d.name ? ` "${printable(d.name)}"` : '';
  const files = `${d.fileCount} file${d.fileCount === 1 ? '' : 's'}, ${formatSize(d.totalSize)}`;
  return `${d.transferId}${name} (${files}, ${d.statusLabel})`;
}

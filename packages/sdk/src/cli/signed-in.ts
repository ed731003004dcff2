import { FerryClient, normalizeServerUrl } from '../client.js';
import { FerryApiError } from '../errors.js';
import { type CredentialContext, credentialOptions, loadCredential, serverHint } from './auth.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';

/** What the dashboard commands (`ferry transfers`, `ferry transfer …`) share: a client acting as the user. */

/** Not signed in to a server: exit 2, "run ferry login". */
export function notSignedIn(server: string, env: NodeJS.ProcessEnv): CliError {
  return new CliError(
    `not signed in to ${server}; run ferry login${serverHint(server, env)}`,
    ExitCode.CREDENTIAL,
  );
}

/**
 * A client sending the credential `ferry login` stored for the server; exit 2 when there is none (or it has
 * ended). A refusal by the server is noted in `context`, so that it is reported as an ended session.
 */
export async function signedInClient(
  io: CliIO,
  server: string,
  context: { credential?: CredentialContext },
  retryForMs: number,
): Promise<FerryClient> {
  const normalized = normalizeServerUrl(server);
  const record = await loadCredential(io, normalized, context);
  if (!record) throw notSignedIn(normalized, io.env);
  return new FerryClient({
    server: normalized,
    retryForMs,
    onRetry: ({ delayMs }) =>
      io.stderr.write(`ferry: ${normalized} unreachable, retrying in ${Math.ceil(delayMs / 1000)} s\n`),
    ...credentialOptions(record, context),
  });
}

/**
 * The error to report for a dashboard call, in words: a transfer that is unknown or not the user's (exit 3),
 * no account behind the request (exit 2), the server's own sentence for a refused change (exit 1). Anything
 * else (an ended session, the network) is left to the common handling.
 */
export function dashboardError(error: unknown, server: string, transferId?: string): unknown {
  if (!(error instanceof FerryApiError)) return error;
  if (error.has('TRANSFER_NOT_FOUND'))
    return new CliError(
      `no transfer ${transferId ? `${transferId} ` : ''}among yours on ${server} (unknown, or not yours to manage)`,
      ExitCode.NOT_FOUND,
    );
  if (error.has('FILE_NOT_FOUND')) return new CliError('this transfer has no such file', ExitCode.NOT_FOUND);
  if (error.has('UNAUTHORIZED'))
    return new CliError(`${server} does not see you signed in; run ferry login`, ExitCode.CREDENTIAL);
  if (['CONFLICT', 'VALIDATION_FAILED', 'FORBIDDEN', 'NOT_FOUND'].some((c) => error.has(c)))
    return new CliError(`the server refused: ${error.message}`);
  return error;
}

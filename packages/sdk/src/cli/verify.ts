import type { SenderVerificationResponse } from '@ferry/core';
import type { FerryClient } from '../client.js';
import { FerryApiError } from '../errors.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { Asker } from './prompt.js';

/** How often a person at the terminal may get the code wrong before `ferry send` gives up. */
export const MAX_CODE_ATTEMPTS = 3;
/** How long to wait for the code on a stdin that is not a terminal (the server keeps a code 30 min by default). */
export const PIPED_CODE_TIMEOUT_MS = 30 * 60_000;

/** "123 456" or " 123456 " → "123456"; null when it is not six digits. */
export function normalizeCode(text: string): string | null {
  const code = text.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/** What confirming the sender's address needs. */
export interface SenderVerification {
  client: FerryClient;
  transferId: string;
  uploadToken: string;
  /** The address the code went to. */
  email: string;
  /** `--verification-code`. */
  code?: string;
  /** `--resend-code`: ask for a new code first. */
  resend?: boolean;
  asker: Asker;
  log: (line: string) => void;
  warn: (line: string) => void;
}

const againHint = 'Run the same command again with --verification-code CODE';

/** The error when no code could be read: the transfer waits, uploaded, for a second run. */
export function noCodeError(email: string): CliError {
  return new CliError(`A code was sent to ${email}. ${againHint}`, ExitCode.PASSWORD);
}

/**
 * Confirms the sender's address with the code e-mailed to it: from `--verification-code`, else asked on the
 * terminal (3 tries, "r" for a new code), else one line read from stdin. Resolves with the server's answer, or
 * null when nothing was pending any more (confirmed meanwhile, e.g. in a browser). A missing or wrong code ends
 * with a {@link CliError} of exit code 2; the caller keeps its journal so that a second run can finish.
 */
export async function verifySenderAddress(v: SenderVerification): Promise<SenderVerificationResponse | null> {
  const { asker, email } = v;
  const prompt = `Enter the 6-digit code sent to ${email}:`;
  if (v.resend) await resend(v, false);
  let fromFlag = v.code !== undefined;
  let answer: string | null;
  if (v.code !== undefined) answer = v.code;
  else if (asker.interactive) answer = await asker.ask(prompt);
  else {
    answer = await asker.readPiped({
      timeoutMs: PIPED_CODE_TIMEOUT_MS,
      onSlow: () => v.log(`ferry: waiting for the code sent to ${email} on stdin`),
    });
  }
  let attempts = 0;
  for (;;) {
    if (answer === null || answer === '') throw noCodeError(email);
    if (asker.interactive && !fromFlag && answer.toLowerCase() === 'r') {
      await resend(v, true);
      answer = await asker.ask(prompt);
      continue;
    }
    const code = normalizeCode(answer);
    let wrong: string;
    if (code === null) {
      wrong = `"${answer}" is not a 6-digit code`;
    } else {
      try {
        return await v.client.verifySender(v.transferId, v.uploadToken, code);
      } catch (error) {
        if (!(error instanceof FerryApiError)) throw error;
        if (error.has('CONFLICT')) return null;
        // Also the answer once too many wrong codes were tried: that code is spent.
        if (error.has('VERIFICATION_CODE_EXPIRED')) {
          const sent = await resend(v, asker.interactive);
          if (!asker.interactive) {
            const next =
              typeof sent === 'string'
                ? `; a new one was sent to ${sent}. ${againHint}`
                : `. Run the same command again with --resend-code${sent ? ` in ${sent.waitSeconds} s` : ''} for a new one`;
            throw new CliError(`the verification code has expired${next}`, ExitCode.PASSWORD);
          }
          answer = await asker.ask(prompt);
          fromFlag = false;
          continue;
        }
        if (!error.has('WRONG_VERIFICATION_CODE')) throw error;
        wrong = 'wrong verification code';
      }
    }
    attempts++;
    if (!asker.interactive) {
      throw new CliError(
        `${wrong} for ${email}; the transfer is uploaded and waits for the right one. ${againHint} ` +
          '(or --resend-code for a new code)',
        ExitCode.PASSWORD,
      );
    }
    if (attempts >= MAX_CODE_ATTEMPTS) {
      throw new CliError(
        `${wrong} (${attempts} attempts); the transfer is uploaded and waits for the right code. ${againHint}`,
        ExitCode.PASSWORD,
      );
    }
    fromFlag = false;
    answer = await asker.ask(`${capitalize(wrong)}. ${prompt.slice(0, -1)}, or "r" for a new one:`);
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Asks for a new code and says where it went, or how long to wait. Returns the address it went to, the wait
 * when asked too soon, or null when nothing is pending.
 */
async function resend(
  v: SenderVerification,
  loud: boolean,
): Promise<string | { waitSeconds: number | undefined } | null> {
  try {
    const sent = await v.client.resendSenderCode(v.transferId, v.uploadToken);
    (loud ? v.warn : v.log)(`ferry: a new code was sent to ${sent.sentTo}`);
    return sent.sentTo;
  } catch (error) {
    if (!(error instanceof FerryApiError)) throw error;
    if (error.status === 429 || error.has('RATE_LIMITED')) {
      const wait = error.retryAfterSeconds ?? retryAfterFromDetails(error);
      v.warn(
        `ferry: no new code yet: wait ${wait === undefined ? 'a minute' : `${wait} s`} before asking for another one`,
      );
      return { waitSeconds: wait };
    }
    if (error.has('CONFLICT')) return null;
    throw error;
  }
}

function retryAfterFromDetails(error: FerryApiError): number | undefined {
  const value = error.details?.retryAfterSeconds;
  return typeof value === 'number' ? value : undefined;
}

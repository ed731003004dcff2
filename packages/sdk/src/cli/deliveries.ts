import type { RecipientDeliveryState, RecipientStatus, TransferSummary } from '@ferry/core';
import { sleep } from '../retry.js';

/** Delivery states that will not change any more: the relay took it, refused it for good, or it is unknowable. */
const FINAL: ReadonlySet<RecipientDeliveryState> = new Set(['sent', 'rejected', 'in_doubt']);

/** True once the transfer went out and every recipient's e-mail reached a final state. */
export function deliveriesSettled(summary: TransferSummary): boolean {
  return summary.sentAt !== null && summary.recipients.every((r) => FINAL.has(r.delivery));
}

/**
 * Polls the transfer (`poll`) until {@link deliveriesSettled} or `timeoutMs` passed; returns the last state seen.
 * A failing poll ends the wait with what is known.
 */
export async function waitForDeliveries(
  first: TransferSummary,
  poll: () => Promise<TransferSummary>,
  options: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal },
): Promise<{ summary: TransferSummary; error?: unknown }> {
  const deadline = Date.now() + options.timeoutMs;
  let summary = first;
  // Most mails are handed over within a second: look again soon, then every `intervalMs`.
  for (let interval = 250; !deliveriesSettled(summary) && Date.now() < deadline; interval *= 2) {
    const wait = Math.min(interval, options.intervalMs ?? 1000);
    await sleep(Math.min(wait, Math.max(0, deadline - Date.now())), options.signal);
    try {
      summary = await poll();
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { summary, error };
    }
  }
  return { summary };
}

/** One recipient's line, and whether it is a warning (not delivered, or maybe not). */
export function describeDelivery(r: RecipientStatus): { line: string; warning: boolean } {
  const why = r.error ? `: ${r.error}` : '';
  switch (r.delivery) {
    case 'sent':
      return { line: `${r.email}: sent`, warning: false };
    case 'waiting':
    case 'queued':
      return { line: `${r.email}: queued (still being sent)`, warning: false };
    case 'failed':
      return { line: `${r.email}: not delivered yet${why} (the server tries again)`, warning: true };
    case 'rejected':
      return { line: `${r.email}: rejected${why}`, warning: true };
    case 'in_doubt':
      return { line: `${r.email}: may not have arrived${why}`, warning: true };
  }
}

/** "Sent to 2 recipients" then one line per recipient; warnings (failed, rejected, in doubt) apart. */
export function deliveryReport(summary: TransferSummary): Array<{ line: string; warning: boolean }> {
  const n = summary.recipients.length;
  const lines = [{ line: `ferry: Sent to ${n} recipient${n === 1 ? '' : 's'}`, warning: false }];
  for (const r of summary.recipients) {
    const { line, warning } = describeDelivery(r);
    lines.push({ line: warning ? `ferry: warning: ${line}` : `ferry:   ${line}`, warning });
  }
  return lines;
}

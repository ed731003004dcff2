import { useCallback, useRef, useState } from 'react';
import { type PendingVerification, updatePendingVerification } from './resume-store';
import type { UploadTarget } from './upload-engine';

/** The transfer being uploaded or sent from this page: where it uploads, and how its sender is verified. */
export interface Sending {
  target: UploadTarget;
  verification: PendingVerification | null;
}

/** An e-mail transfer goes out only once the sender's code is in: until then the page waits for it. */
export function waitsForCodeToSend(verification: PendingVerification | null | undefined): boolean {
  return verification?.type === 'S1' && verification.state === 'pending';
}

/** When another code may be asked for (ms since the epoch). */
export function resendAvailableAt(verification: PendingVerification): number {
  const sent = Date.parse(verification.codeSentAt);
  return (Number.isNaN(sent) ? 0 : sent) + verification.resendAfterSeconds * 1000;
}

/**
 * The page's current transfer, mirrored in a ref so that callbacks of the upload engine read the latest
 * state; every change of its verification is also written to the saved record (a reload keeps it).
 */
export function useSending() {
  const [sending, setSending] = useState<Sending | null>(null);
  const ref = useRef<Sending | null>(null);

  const set = useCallback((next: Sending | null) => {
    ref.current = next;
    setSending(next);
  }, []);

  const updateVerification = useCallback(
    (change: Partial<PendingVerification>) => {
      const current = ref.current;
      if (!current?.verification) return;
      updatePendingVerification(current.target.transferId, change);
      set({ ...current, verification: { ...current.verification, ...change } });
    },
    [set],
  );

  return { sending, ref, set, updateVerification };
}

import type { TransferSummary } from '@ferry/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../lib/api';
import { getUploadState } from '../../lib/transfer-api';
import type { IncomingFile } from './collect-files';
import {
  clearPending,
  loadPending,
  matchResumeFiles,
  type PendingTransfer,
  type PendingVerification,
  type ResumeCandidate,
  updatePendingVerification,
} from './resume-store';

export interface PendingState {
  pending: PendingTransfer;
  /** Files the server already holds in full (from upload-state). */
  uploadedIds: ReadonlySet<string>;
  attached: ReadonlyMap<string, ResumeCandidate>;
  /** Files still to be re-added before the upload can go on. */
  missing: PendingTransfer['files'];
  checked: boolean;
  /**
   * Every file is uploaded and the transfer only waits for the sender's code (the server's upload-state);
   * nothing needs to be added again.
   */
  awaitingCode: TransferSummary | null;
}

/** Statuses of the server's check (upload-state, a receive upload) that mean the saved upload is gone. */
export function isGone(error: unknown): boolean {
  return error instanceof ApiError && [401, 403, 404, 410].includes(error.status);
}

/**
 * Attaches re-added files to the files of the unfinished upload (by name, size and path, see
 * matchResumeFiles); earlier attachments are kept. Returns the new attachments, the files still missing and
 * the re-added files that are not part of it.
 */
export function attachResumeFiles(
  pending: PendingTransfer,
  uploadedIds: ReadonlySet<string>,
  attached: ReadonlyMap<string, ResumeCandidate>,
  incoming: readonly IncomingFile[],
) {
  const candidates = incoming.map(({ file, relativePath }) => ({
    file,
    name: file.name,
    size: file.size,
    relativePath,
  }));
  const match = matchResumeFiles(pending.files, uploadedIds, candidates, attached);
  return {
    unrelated: match.unrelated.map(({ file, relativePath }) => ({ file, relativePath })),
    attached: match.attached,
    missing: match.missing,
  };
}

/**
 * The unfinished transfer saved by an earlier visit (spec-less but expected: a reload must not lose an
 * upload, nor the chance to enter the sender's code). It is checked against the server's upload-state; an
 * expired, finished or unknown transfer is forgotten silently, one that only waits for the code is kept.
 */
export function usePendingTransfer() {
  const [pending, setPending] = useState<PendingTransfer | null>(() => loadPending());
  const [uploadedIds, setUploadedIds] = useState<ReadonlySet<string>>(new Set());
  const [attached, setAttached] = useState<ReadonlyMap<string, ResumeCandidate>>(new Map());
  const [checked, setChecked] = useState(false);
  const [awaitingCode, setAwaitingCode] = useState<TransferSummary | null>(null);

  const transferId = pending?.transferId;
  const uploadToken = pending?.uploadToken;
  const expiresAt = pending?.expiresAt;
  useEffect(() => {
    if (!transferId || !uploadToken) return;
    if (expiresAt && Date.parse(expiresAt) < Date.now()) {
      clearPending(transferId);
      setPending(null);
      return;
    }
    let live = true;
    getUploadState(transferId, uploadToken).then(
      (state) => {
        if (!live) return;
        const saved = loadPending();
        const waitsForCode = state.senderVerification === 'pending' && saved?.verification !== undefined;
        if (state.status !== 'UPLOADING' && !waitsForCode) {
          clearPending(transferId);
          setPending(null);
          return;
        }
        if (saved?.verification && saved.verification.state !== state.senderVerification) {
          // Verified meanwhile (another tab), or a new code is needed: the server knows best.
          setPending(updatePendingVerification(transferId, { state: state.senderVerification }) ?? saved);
        }
        if (state.status !== 'UPLOADING') setAwaitingCode(state);
        setUploadedIds(new Set(state.files.filter((f) => f.uploaded).map((f) => f.id)));
        setChecked(true);
      },
      (error: unknown) => {
        if (!live) return;
        if (isGone(error)) {
          clearPending(transferId);
          setPending(null);
        } else setChecked(true);
      },
    );
    return () => {
      live = false;
    };
  }, [transferId, uploadToken, expiresAt]);

  const discard = useCallback(() => {
    if (transferId) clearPending(transferId);
    setPending(null);
    setAttached(new Map());
    setAwaitingCode(null);
  }, [transferId]);

  /** Records a change of the sender's verification (a code entered or resent from the banner). */
  const updateVerification = useCallback(
    (change: Partial<PendingVerification>) => {
      if (!transferId) return;
      const next = updatePendingVerification(transferId, change);
      if (next) setPending(next);
    },
    [transferId],
  );

  /** Forgets the banner without touching storage (the upload now runs and owns the saved record). */
  const release = useCallback(() => {
    setPending(null);
    setAttached(new Map());
    setAwaitingCode(null);
  }, []);

  /** Re-attaches re-added files; returns those that are not part of the unfinished transfer. */
  const attach = useCallback(
    (incoming: readonly IncomingFile[]) => {
      if (!pending) return { unrelated: [...incoming], attached, missing: [] };
      const result = attachResumeFiles(pending, uploadedIds, attached, incoming);
      setAttached(result.attached);
      return result;
    },
    [pending, uploadedIds, attached],
  );

  const state: PendingState | null = useMemo(() => {
    if (!pending) return null;
    const missing = pending.files.filter((f) => !uploadedIds.has(f.id) && !attached.has(f.id));
    return { pending, uploadedIds, attached, missing, checked, awaitingCode };
  }, [pending, uploadedIds, attached, checked, awaitingCode]);

  return { state, discard, release, attach, updateVerification };
}

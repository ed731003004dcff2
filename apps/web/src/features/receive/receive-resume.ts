import type { ReceiveTarget } from '@ferry/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { getReceiveUpload } from '../../lib/receive-api';
import { browserStore, type KeyValueStore, readJson, removeKey, writeJson } from '../../lib/storage';
import type { IncomingFile } from '../uploader/collect-files';
import {
  forgetTusUploads,
  isPendingTransfer,
  type PendingTransfer,
  type ResumeCandidate,
} from '../uploader/resume-store';
import { attachResumeFiles, isGone, type PendingState } from '../uploader/use-pending-transfer';

/** An upload into a receive point in progress, kept so that a reload can resume it (never the file bodies). */
export interface PendingReceive {
  /** Which page it belongs to (see pointKey): another page does not offer it. */
  point: string;
  pending: PendingTransfer;
}

export const RECEIVE_PENDING_KEY = 'ferry.pendingReceive';

/** A point's identity for the saved upload: kind and id, never a secret (a personal link's userSecret). */
export function pointKey(target: ReceiveTarget): string {
  switch (target.kind) {
    case 'request':
      return `request:${target.requestId}`;
    case 'inbox':
      return `inbox:${target.slug.toLowerCase()}`;
    case 'widget':
      return `widget:${target.widgetId}`;
    case 'push':
      return `push:${target.to.trim().toLowerCase()}`;
  }
}

export function loadPendingReceive(
  point: string,
  store: KeyValueStore | null = browserStore(),
): PendingTransfer | null {
  const value = readJson(RECEIVE_PENDING_KEY, store) as PendingReceive | null;
  if (!value || value.point !== point || !isPendingTransfer(value.pending)) return null;
  return value.pending;
}

export function savePendingReceive(
  point: string,
  pending: PendingTransfer,
  store: KeyValueStore | null = browserStore(),
): void {
  writeJson(RECEIVE_PENDING_KEY, { point, pending } satisfies PendingReceive, store);
}

/** Forgets the saved upload (if it is this one) and the upload URLs tus kept for it. */
export function clearPendingReceive(transferId: string, store: KeyValueStore | null = browserStore()): void {
  const value = readJson(RECEIVE_PENDING_KEY, store) as PendingReceive | null;
  if (value?.pending?.transferId === transferId) removeKey(RECEIVE_PENDING_KEY, store);
  forgetTusUploads(transferId, store);
}

/**
 * The unfinished upload of an earlier visit to this page, checked against the server (GET
 * /receive/uploads/{id}): one that is gone or no longer uploading is forgotten silently. Re-added files with
 * the same name, size and path are attached to their ids; the state has the uploader's resume banner shape.
 */
export function useReceiveResume(point: string) {
  const [pending, setPending] = useState<PendingTransfer | null>(() => loadPendingReceive(point));
  const [uploadedIds, setUploadedIds] = useState<ReadonlySet<string>>(new Set());
  const [attached, setAttached] = useState<ReadonlyMap<string, ResumeCandidate>>(new Map());
  const [checked, setChecked] = useState(false);

  const transferId = pending?.transferId;
  const uploadToken = pending?.uploadToken;
  useEffect(() => {
    if (!transferId || !uploadToken) return;
    let live = true;
    getReceiveUpload(transferId, uploadToken).then(
      (receipt) => {
        if (!live) return;
        if (receipt.status !== 'UPLOADING') {
          clearPendingReceive(transferId);
          setPending(null);
          return;
        }
        setUploadedIds(new Set(receipt.files.filter((f) => f.uploaded).map((f) => f.id)));
        setChecked(true);
      },
      (error: unknown) => {
        if (!live) return;
        if (isGone(error)) {
          clearPendingReceive(transferId);
          setPending(null);
        } else setChecked(true);
      },
    );
    return () => {
      live = false;
    };
  }, [transferId, uploadToken]);

  const discard = useCallback(() => {
    if (transferId) clearPendingReceive(transferId);
    setPending(null);
    setAttached(new Map());
  }, [transferId]);

  /** Forgets the banner without touching storage (the upload now runs and owns the saved record). */
  const release = useCallback(() => {
    setPending(null);
    setAttached(new Map());
  }, []);

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
    return { pending, uploadedIds, attached, missing, checked, awaitingCode: null };
  }, [pending, uploadedIds, attached, checked]);

  return { state, discard, release, attach };
}

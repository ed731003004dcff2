import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../../lib/storage';
import {
  clearPending,
  loadPending,
  matchResumeFiles,
  type PendingFile,
  type PendingTransfer,
  savePending,
  tusFingerprint,
} from './resume-store';

function memoryStore(): KeyValueStore & Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

const files: PendingFile[] = [
  { id: 'AAAAA1', name: 'a.txt', size: 10, relativePath: null, lastModified: 1 },
  { id: 'AAAAA2', name: 'b.txt', size: 20, relativePath: 'dir/b.txt', lastModified: 1 },
  { id: 'AAAAA3', name: 'b.txt', size: 20, relativePath: 'other/b.txt', lastModified: 1 },
  { id: 'AAAAA4', name: 'c.txt', size: 30, relativePath: null, lastModified: 1 },
];

const pending: PendingTransfer = {
  transferId: 'AbCdEfGhIjKlMnOp',
  uploadToken: 'secret',
  uploadEndpoint: '/api/transfer/uploads',
  link: '/dl/AbCdEfGhIjKlMnOp',
  expiresAt: '2030-01-01T00:00:00.000Z',
  createdAt: '2029-12-25T00:00:00.000Z',
  files,
};

function candidate(name: string, size: number, relativePath: string | null) {
  return { file: new File(['x'.repeat(size)], name), name, size, relativePath };
}

describe('matchResumeFiles', () => {
  it('re-attaches files by name, size and relative path', () => {
    const match = matchResumeFiles(files, new Set(), [
      candidate('b.txt', 20, 'other/b.txt'),
      candidate('a.txt', 10, null),
      candidate('b.txt', 20, 'dir/b.txt'),
    ]);
    expect([...match.attached.keys()].sort()).toEqual(['AAAAA1', 'AAAAA2', 'AAAAA3']);
    expect(match.attached.get('AAAAA3')?.relativePath).toBe('other/b.txt');
    expect(match.missing.map((f) => f.id)).toEqual(['AAAAA4']);
    expect(match.unrelated).toEqual([]);
  });

  it('does not attach a file whose size or path differs', () => {
    const match = matchResumeFiles(files, new Set(), [
      candidate('a.txt', 11, null),
      candidate('b.txt', 20, 'elsewhere/b.txt'),
    ]);
    expect(match.attached.size).toBe(0);
    expect(match.unrelated).toHaveLength(2);
    expect(match.missing).toHaveLength(4);
  });

  it('does not ask again for files the server already holds', () => {
    const match = matchResumeFiles(files, new Set(['AAAAA1', 'AAAAA4']), [
      candidate('b.txt', 20, 'dir/b.txt'),
    ]);
    expect(match.missing.map((f) => f.id)).toEqual(['AAAAA3']);
  });

  it('keeps earlier attachments when files come in several drops', () => {
    const first = matchResumeFiles(files, new Set(), [candidate('a.txt', 10, null)]);
    const second = matchResumeFiles(files, new Set(), [candidate('c.txt', 30, null)], first.attached);
    expect([...second.attached.keys()].sort()).toEqual(['AAAAA1', 'AAAAA4']);
    // The same file dropped twice does not take another file's place.
    const third = matchResumeFiles(files, new Set(), [candidate('a.txt', 10, null)], second.attached);
    expect(third.unrelated).toHaveLength(1);
  });
});

describe('pending transfer storage', () => {
  it('round-trips, and refuses a damaged record', () => {
    const store = memoryStore();
    expect(loadPending(store)).toBeNull();
    savePending(pending, store);
    expect(loadPending(store)).toEqual(pending);
    store.setItem('ferry.pendingUpload', '{"transferId":1}');
    expect(loadPending(store)).toBeNull();
    store.setItem('ferry.pendingUpload', 'not json');
    expect(loadPending(store)).toBeNull();
  });

  it("clears the record and tus's stored URLs of that transfer only", () => {
    const store = memoryStore();
    savePending(pending, store);
    store.setItem(`tus::${tusFingerprint(pending.transferId, 'AAAAA1', 10)}::1`, '{}');
    store.setItem(`tus::${tusFingerprint('ZZZZZZZZZZZZZZZZ', 'AAAAA1', 10)}::1`, '{}');
    clearPending(pending.transferId, store);
    expect(loadPending(store)).toBeNull();
    expect(store.length).toBe(1);
    expect(store.key(0)).toContain('ZZZZZZZZZZZZZZZZ');
  });

  it('makes fingerprints that differ between transfers for the same file', () => {
    expect(tusFingerprint('T1', 'F1', 5)).not.toBe(tusFingerprint('T2', 'F1', 5));
  });
});

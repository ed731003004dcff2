import { describe, expect, it } from 'vitest';
import type { PendingTransfer } from '../uploader/resume-store';
import {
  clearPendingReceive,
  loadPendingReceive,
  pointKey,
  RECEIVE_PENDING_KEY,
  savePendingReceive,
} from './receive-resume';

function memoryStore() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    get length() {
      return data.size;
    },
    key: (i: number) => [...data.keys()][i] ?? null,
    data,
  };
}

const pending: PendingTransfer = {
  transferId: 'AbCdEfGhIjKlMnOp',
  uploadToken: 'tok',
  uploadEndpoint: '/api/transfer/uploads',
  link: '/r/abc',
  expiresAt: '',
  createdAt: '2030-01-01T00:00:00.000Z',
  files: [{ id: 'FILE01', name: 'a.pdf', size: 3, relativePath: null, lastModified: 1 }],
};

describe('the saved receive upload', () => {
  it('names a point by kind and id, never by a personal secret', () => {
    expect(pointKey({ kind: 'request', requestId: 'abc-def', userSecret: 's3cret' })).toBe('request:abc-def');
    expect(pointKey({ kind: 'inbox', slug: 'Studio' })).toBe('inbox:studio');
    expect(pointKey({ kind: 'push', to: ' Ada@Example.com ' })).toBe('push:ada@example.com');
  });

  it('is offered on its own page only, and forgotten with tus’s upload URLs', () => {
    const store = memoryStore();
    savePendingReceive('request:abc', pending, store);
    store.setItem('tus::ferry:AbCdEfGhIjKlMnOp:FILE01:3::1', '{}');
    store.setItem('tus::ferry:Other0000000000:FILE01:3::1', '{}');
    expect(loadPendingReceive('request:abc', store)).toEqual(pending);
    expect(loadPendingReceive('inbox:abc', store)).toBeNull();
    clearPendingReceive('AbCdEfGhIjKlMnOp', store);
    expect(store.getItem(RECEIVE_PENDING_KEY)).toBeNull();
    expect([...store.data.keys()]).toEqual(['tus::ferry:Other0000000000:FILE01:3::1']);
  });
});

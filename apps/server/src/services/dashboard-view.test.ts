import { describe, expect, it } from 'vitest';
import { buildTimelines, expiryFrom, readCursor, writeCursor } from './dashboard-view.js';

const ID = 'AbCdEfGh12345678';

describe('list cursors', () => {
  it('read back the position they were written for', () => {
    const key = '2026-01-02T03:04:05.123456Z';
    expect(
      readCursor(writeCursor('createdAt', 'desc', { sortKey: key, id: ID }), 'createdAt', 'desc'),
    ).toEqual({
      key,
      id: ID,
    });
    expect(readCursor(writeCursor('name', 'asc', { sortKey: '', id: ID }), 'name', 'asc')).toEqual({
      key: '',
      id: ID,
    });
  });

  it('are refused for another sort or direction, or when malformed', () => {
    const size = writeCursor('size', 'asc', { sortKey: '42', id: ID });
    for (const [cursor, sort, dir] of [
      [size, 'size', 'desc'],
      [size, 'createdAt', 'asc'],
      [writeCursor('size', 'asc', { sortKey: '4 2', id: ID }), 'size', 'asc'],
      [writeCursor('createdAt', 'asc', { sortKey: '2026-01-02', id: ID }), 'createdAt', 'asc'],
      [writeCursor('name', 'asc', { sortKey: 'a\u0000', id: ID }), 'name', 'asc'],
      [writeCursor('size', 'asc', { sortKey: '1', id: 'short' }), 'size', 'asc'],
      ['not base64 json', 'size', 'asc'],
      [Buffer.from('{"a":1}').toString('base64url'), 'size', 'asc'],
    ] as const)
      expect(() => readCursor(cursor, sort, dir)).toThrow(/cursor/);
  });
});

describe('expiryFrom', () => {
  const latest = new Date('2026-03-10T14:30:00.000Z');
  it('takes a date-time as given and a day as its end (UTC), or the latest moment on the last day', () => {
    expect(expiryFrom('2026-03-05T08:00:00+02:00', latest).toISOString()).toBe('2026-03-05T06:00:00.000Z');
    expect(expiryFrom('2026-03-05', latest).toISOString()).toBe('2026-03-05T23:59:59.999Z');
    expect(expiryFrom('2026-03-10', latest)).toEqual(latest);
    // Past the last day it stays past, for the caller to refuse.
    expect(expiryFrom('2026-03-11', latest).toISOString()).toBe('2026-03-11T23:59:59.999Z');
  });
});

describe('buildTimelines', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));
  it("orders each recipient's steps by time and keeps other downloads apart", () => {
    const { byEmail, others } = buildTimelines(
      [
        {
          id: 1,
          email: 'Bob@Example.com',
          createdAt: at(0),
          openedAt: at(3),
          delivery: 'sent',
          deliveryError: null,
          mailQueuedAt: at(1),
          mailSentAt: at(2),
          mailUpdatedAt: at(2),
        },
        {
          id: 2,
          email: 'carol@example.com',
          createdAt: at(0),
          openedAt: null,
          delivery: 'rejected',
          deliveryError: '550 no such user',
          mailQueuedAt: at(1),
          mailSentAt: null,
          mailUpdatedAt: at(4),
        },
      ],
      [
        {
          id: 10,
          fileId: null,
          kind: 'zip',
          recipientId: 1,
          bytes: 300,
          downloaderEmail: null,
          createdAt: at(5),
        },
        {
          id: 11,
          fileId: 'f1',
          kind: 'file',
          recipientId: 1,
          bytes: 100,
          downloaderEmail: null,
          createdAt: at(4),
        },
        {
          id: 12,
          fileId: 'f2',
          kind: 'file',
          recipientId: null,
          bytes: 200,
          downloaderEmail: 'x@y.z',
          createdAt: at(6),
        },
      ],
      ['f1', 'f2'],
    );
    expect(byEmail.get('bob@example.com')).toEqual([
      { kind: 'sent', at: at(1).toISOString() },
      { kind: 'delivered', at: at(2).toISOString() },
      { kind: 'opened', at: at(3).toISOString() },
      { kind: 'downloaded', at: at(4).toISOString(), fileIds: ['f1'], archive: false, bytes: 100 },
      { kind: 'downloaded', at: at(5).toISOString(), fileIds: ['f1', 'f2'], archive: true, bytes: 300 },
    ]);
    expect(byEmail.get('carol@example.com')).toEqual([
      { kind: 'sent', at: at(1).toISOString() },
      { kind: 'failed', at: at(4).toISOString() },
    ]);
    expect(others).toEqual([
      { at: at(6).toISOString(), fileIds: ['f2'], archive: false, bytes: 200, downloaderEmail: 'x@y.z' },
    ]);
  });
});

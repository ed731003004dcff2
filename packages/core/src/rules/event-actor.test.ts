import { describe, expect, it } from 'vitest';
import { type EventActor, formatEventActor, parseEventActor } from './event-actor.js';

describe('event actors', () => {
  it('reads every stored form', () => {
    expect(parseEventActor('user:u_123')).toEqual({ kind: 'user', userId: 'u_123', email: null });
    expect(parseEventActor('anonymous')).toEqual({ kind: 'anonymous', userId: null, email: null });
    expect(parseEventActor('system')).toEqual({ kind: 'system', userId: null, email: null });
    expect(parseEventActor('recipient:bob@example.com')).toEqual({
      kind: 'recipient',
      userId: null,
      email: 'bob@example.com',
    });
    expect(parseEventActor('sender:unknown')).toEqual({ kind: 'sender', userId: null, email: null });
    expect(parseEventActor('uploader:erin@example.com')).toEqual({
      kind: 'uploader',
      userId: null,
      email: 'erin@example.com',
    });
    expect(parseEventActor('downloader:x:y@example.com').email).toBe('x:y@example.com');
  });

  it('reads what it does not know as the system, never failing', () => {
    for (const odd of ['', 'user:', 'robot:1', ':x', 'recipient:'])
      expect(parseEventActor(odd)).toEqual({ kind: 'system', userId: null, email: null });
  });

  it('writes what it reads back', () => {
    const actors: EventActor[] = [
      { kind: 'user', userId: 'abc', email: null },
      { kind: 'anonymous', userId: null, email: null },
      { kind: 'system', userId: null, email: null },
      { kind: 'recipient', userId: null, email: 'r@example.com' },
      { kind: 'uploader', userId: null, email: 'u@example.com' },
      { kind: 'downloader', userId: null, email: 'd@example.com' },
    ];
    for (const a of actors) expect(parseEventActor(formatEventActor(a))).toEqual(a);
  });
});

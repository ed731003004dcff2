/**
 * Who a transfer event is recorded for. Stored as one string: `user:<id>`, `recipient:<email>`, `system`, …
 * `uploader:<email>` is someone who uploaded through a receive page and typed that address: nobody checked it,
 * so it is shown as "(address not verified)". An upload through a request's personal link (S1) is recorded as
 * `recipient:<email>`: the link was mailed to that address.
 */
export const EVENT_ACTOR_KINDS = [
  'user',
  'anonymous',
  'sender',
  'recipient',
  'uploader',
  'downloader',
  'system',
] as const;
export type EventActorKind = (typeof EVENT_ACTOR_KINDS)[number];

export interface EventActor {
  kind: EventActorKind;
  userId: string | null;
  email: string | null;
}

/** The stored form of an actor: the inverse of {@link parseEventActor}. */
export function formatEventActor(actor: EventActor): string {
  if (actor.kind === 'user') return `user:${actor.userId ?? ''}`;
  if (actor.kind === 'anonymous' || actor.kind === 'system') return actor.kind;
  return `${actor.kind}:${actor.email ?? 'unknown'}`;
}

/**
 * Reads a stored actor. Anything unrecognised (a newer kind written by a newer version) reads as `system`
 * rather than failing the whole history.
 */
export function parseEventActor(stored: string): EventActor {
  if (stored === 'anonymous' || stored === 'system') return { kind: stored, userId: null, email: null };
  const colon = stored.indexOf(':');
  const kind = colon > 0 ? stored.slice(0, colon) : '';
  const rest = stored.slice(colon + 1);
  if (kind === 'user' && rest) return { kind: 'user', userId: rest, email: null };
  if ((kind === 'sender' || kind === 'recipient' || kind === 'uploader' || kind === 'downloader') && rest)
    return { kind, userId: null, email: rest === 'unknown' ? null : rest };
  return { kind: 'system', userId: null, email: null };
}

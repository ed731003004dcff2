/** Who a transfer event is recorded for. Stored as one string: `user:<id>`, `recipient:<email>`, `system`, … */
export const EVENT_ACTOR_KINDS = [
  'user',
  'anonymous',
  'sender',
  'recipient',
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
  if ((kind === 'sender' || kind === 'recipient' || kind === 'downloader') && rest)
    return { kind, userId: null, email: rest === 'unknown' ? null : rest };
  return { kind: 'system', userId: null, email: null };
}

import { describe, expect, it } from 'vitest';
import { ModerationHold } from './moderation-hold.js';
import type { TransferRecord } from './ports.js';

/** The hold's rule, against an in-memory store of sends and holds. */
function setup(options: { operators?: boolean; threshold?: number } = {}) {
  const holds = new Set<string>();
  const sends: Array<{ transferId: string; senderEmail: string | null; clientIp: string | null; n: number }> =
    [];
  const recipients = new Map<string, number>();
  const hold = new ModerationHold(
    {
      hold: async (id) =>
        holds.has(id)
          ? { transferId: id, source: 'operator', heldBy: 'x', details: {}, heldAt: new Date() }
          : null,
      recordRuleHold: async (h) => void holds.add(h.transferId),
      recordSend: async (send) => {
        if (!sends.some((s) => s.transferId === send.transferId))
          sends.push({ ...send, n: recipients.get(send.transferId) ?? 0 });
        const sum = (match: (s: (typeof sends)[number]) => boolean) =>
          sends.filter(match).reduce((total, s) => total + s.n, 0);
        return {
          recipients: recipients.get(send.transferId) ?? 0,
          bySender: send.senderEmail ? sum((s) => s.senderEmail === send.senderEmail) : 0,
          byClient: send.clientIp ? sum((s) => s.clientIp === send.clientIp) : 0,
        };
      },
    },
    { configured: options.operators ?? true },
    { s1Recipients: options.threshold ?? 3, windowMinutes: 60 },
  );
  const transfer = (id: string, n: number, extra: Partial<TransferRecord> = {}) => {
    recipients.set(id, n);
    return {
      id,
      type: 'S1',
      ownerId: null,
      senderEmail: 'bulk@example.com',
      clientIp: '192.0.2.1',
      ...extra,
    } as TransferRecord;
  };
  return { hold, holds, transfer };
}

describe('ModerationHold', () => {
  it('holds the anonymous S1 send that takes a sender past the threshold, and that one only', async () => {
    const { hold, transfer } = setup();
    expect(await hold.statusFor(transfer('a', 2), [], 'uploaded')).toBeNull();
    expect(await hold.statusFor(transfer('b', 2, { clientIp: '192.0.2.9' }), [], 'uploaded')).toBe(
      'MODERATING',
    );
    // Asked again later (another hold ended): still held, by its row.
    expect(await hold.statusFor(transfer('b', 2), [], 'recheck')).toBe('MODERATING');
    expect(await hold.statusFor(transfer('a', 2), [], 'recheck')).toBeNull();
  });

  it('counts per client address too', async () => {
    const { hold, transfer } = setup();
    await hold.statusFor(transfer('a', 3), [], 'uploaded');
    const other = transfer('b', 1, { senderEmail: 'other@example.com' });
    expect(await hold.statusFor(other, [], 'uploaded')).toBe('MODERATING');
  });

  it('leaves alone signed-in senders, links, rechecks, and every send when no operator could release it', async () => {
    const many = 50;
    const { hold, transfer } = setup();
    expect(await hold.statusFor(transfer('a', many, { ownerId: 'u1' }), [], 'uploaded')).toBeNull();
    expect(await hold.statusFor(transfer('b', many, { type: 'S2' }), [], 'uploaded')).toBeNull();
    expect(await hold.statusFor(transfer('c', many), [], 'recheck')).toBeNull();
    const alone = setup({ operators: false });
    expect(await alone.hold.statusFor(alone.transfer('d', many), [], 'uploaded')).toBeNull();
    const off = setup({ threshold: 0 });
    expect(await off.hold.statusFor(off.transfer('e', many), [], 'uploaded')).toBeNull();
  });
});

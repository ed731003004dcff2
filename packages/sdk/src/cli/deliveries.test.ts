import type { RecipientStatus, TransferSummary } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { deliveriesSettled, deliveryReport, waitForDeliveries } from './deliveries.js';

const recipient = (email: string, delivery: RecipientStatus['delivery'], error: string | null = null) => ({
  email,
  delivery,
  error,
  downloadedAt: null,
});

const transfer = (recipients: RecipientStatus[], sentAt: string | null = '2030-01-01T00:00:00Z') =>
  ({
    transferId: 'AbCdEfGh12345678',
    type: 'S1',
    status: 'ENABLED',
    name: null,
    link: '/dl/AbCdEfGh12345678',
    expiresAt: '2030-01-08T00:00:00Z',
    totalSize: 1,
    files: [],
    senderEmail: 'ann@example.com',
    senderVerification: 'verified',
    sentAt,
    recipients,
    notifications: {
      downloadConfirmation: true,
      expiryReminder: true,
      summary: true,
      forceEmailWhenDownloadS2: false,
    },
  }) satisfies TransferSummary;

describe('deliveriesSettled', () => {
  it('waits for the transfer to go out and for sent, rejected or in doubt; failed is retried', () => {
    expect(deliveriesSettled(transfer([recipient('a@x.io', 'sent')], null))).toBe(false);
    expect(deliveriesSettled(transfer([recipient('a@x.io', 'sent'), recipient('b@x.io', 'queued')]))).toBe(
      false,
    );
    expect(deliveriesSettled(transfer([recipient('a@x.io', 'failed')]))).toBe(false);
    expect(
      deliveriesSettled(
        transfer([
          recipient('a@x.io', 'sent'),
          recipient('b@x.io', 'rejected'),
          recipient('c@x.io', 'in_doubt'),
        ]),
      ),
    ).toBe(true);
  });
});

describe('deliveryReport', () => {
  it('counts the recipients, then one line each; failures are warnings with the error', () => {
    const report = deliveryReport(
      transfer([
        recipient('a@x.io', 'sent'),
        recipient('b@x.io', 'rejected', '550 5.1.1 no such user'),
        recipient('c@x.io', 'queued'),
        recipient('d@x.io', 'failed', '451 try later'),
        recipient('e@x.io', 'in_doubt', 'connection lost'),
      ]),
    );
    expect(report).toEqual([
      { line: 'ferry: Sent to 5 recipients', warning: false },
      { line: 'ferry:   a@x.io: sent', warning: false },
      { line: 'ferry: warning: b@x.io: rejected: 550 5.1.1 no such user', warning: true },
      { line: 'ferry:   c@x.io: queued (still being sent)', warning: false },
      {
        line: 'ferry: warning: d@x.io: not delivered yet: 451 try later (the server tries again)',
        warning: true,
      },
      { line: 'ferry: warning: e@x.io: may not have arrived: connection lost', warning: true },
    ]);
    expect(deliveryReport(transfer([recipient('a@x.io', 'sent')]))[0]?.line).toBe(
      'ferry: Sent to 1 recipient',
    );
  });
});

describe('waitForDeliveries', () => {
  it('polls until every delivery is final', async () => {
    const states = [transfer([recipient('a@x.io', 'queued')]), transfer([recipient('a@x.io', 'sent')])];
    let polls = 0;
    const { summary } = await waitForDeliveries(
      transfer([recipient('a@x.io', 'waiting')], null),
      async () => {
        return states[Math.min(polls++, states.length - 1)]!;
      },
      { timeoutMs: 5000, intervalMs: 5 },
    );
    expect(polls).toBe(2);
    expect(summary.recipients[0]?.delivery).toBe('sent');
  });

  it('stops at the timeout with the last state, and on a failing poll with its error', async () => {
    const queued = transfer([recipient('a@x.io', 'queued')]);
    const started = Date.now();
    const timedOut = await waitForDeliveries(queued, async () => queued, { timeoutMs: 60, intervalMs: 10 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(timedOut.summary).toBe(queued);
    const failed = await waitForDeliveries(queued, () => Promise.reject(new Error('down')), {
      timeoutMs: 1000,
      intervalMs: 5,
    });
    expect((failed.error as Error).message).toBe('down');
    expect(failed.summary).toBe(queued);
  });
});

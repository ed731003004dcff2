import type { PaymentProviderName } from '@ferry/core';
import type { Logger } from 'pino';
import type { EventTransaction, ProviderEventOutcome } from '../db/provider-events.repository.js';
import { AppError } from '../services/app-error.js';
import { type PaymentProvider, type ProviderEvent, WebhookSignatureError } from './provider.js';

/** The card providers that send webhooks. */
export type CardProviderName = Extract<PaymentProviderName, 'STRIPE' | 'PAYPAL'>;

/**
 * Whoever acts on verified provider events (the subscription service). Throwing leaves the event for a retry.
 * `tx` is the transaction that marks the event processed: what the handler writes through it stands or falls with
 * that mark (a handler may also write through its own pool, and then must be idempotent by the payment reference).
 */
export interface ProviderEventHandler {
  handle(provider: CardProviderName, event: ProviderEvent, tx: EventTransaction): Promise<void>;
}

/** Where events are marked as processed, once (PgProviderEvents). */
export interface ProviderEventLedger {
  processOnce(
    provider: string,
    eventId: string,
    type: string,
    handle: (tx: EventTransaction) => Promise<void>,
  ): Promise<ProviderEventOutcome>;
}

/**
 * Receives the providers' webhooks: verifies the signature over the raw body (nothing is processed without it),
 * then hands the event to the handler exactly once.
 */
export class ProviderWebhooks {
  constructor(
    private readonly providers: Partial<Record<CardProviderName, PaymentProvider>>,
    private readonly ledger: ProviderEventLedger,
    private readonly handler: ProviderEventHandler,
    private readonly logger: Logger,
  ) {}

  async receive(
    name: CardProviderName,
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<ProviderEventOutcome> {
    const provider = this.providers[name];
    if (!provider) throw new AppError('NOT_FOUND', 'Not found');
    let event: ProviderEvent;
    try {
      event = await provider.verifyWebhook(rawBody, headers);
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        this.logger.warn({ provider: name, reason: error.message }, 'webhook refused: bad signature');
        throw new AppError('VALIDATION_FAILED', 'The webhook signature is missing or wrong');
      }
      throw error;
    }
    const type = event.kind === 'ignored' ? event.type : event.kind;
    // Events Ferry does not act on are recorded too, so a replay of one is answered the same way.
    const outcome = await this.ledger.processOnce(name, event.eventId, type, async (tx) => {
      if (event.kind !== 'ignored') await this.handler.handle(name, event, tx);
    });
    this.logger.info({ provider: name, eventId: event.eventId, type, outcome }, 'webhook event');
    return outcome;
  }
}

/**
 * Until a subscription service handles events, none is taken: each answers 500 and stays with the provider, which
 * delivers it again later.
 */
export const NO_PROVIDER_EVENT_HANDLER: ProviderEventHandler = {
  async handle() {
    throw new Error('no handler of payment provider events is wired');
  },
};

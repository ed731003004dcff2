import type { PaymentIntentStatus, PaymentProviderName } from '@ferry/core';
import type { Logger } from 'pino';
import type { PgAccountRepository } from '../db/account.repository.js';
import type { PgSubscriptionRepository, SubscriptionRecord } from '../db/subscription.repository.js';
import { type DunningStage, subscriptionDunning } from '../mail/templates/index.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { Invoices, Taxes } from './billing-ports.js';
import type { MailQueue } from './notification.service.js';
import type { PlanService } from './plan.service.js';
import { addDays } from './subscription-view.js';

/** A MANUAL subscription's next invoice is issued this many days before its period (or trial) ends. */
export const RENEWAL_INVOICE_LEAD_DAYS = 7;
/** Dunning: the renewal failed on day 0; retries (and mails) on days 3 and 7, then the plan falls back to NONE. */
export const DUNNING_RETRY_DAYS = [3, 7] as const;

export interface DunningSettings {
  productName: string;
  /** Where /account/subscriptions is, for the mails. */
  publicOrigin: () => string;
  line: (sub: SubscriptionRecord) => string;
}

/**
 * Renewals and dunning, run by the maintenance tick (once across instances: pg-boss singleton, and every step
 * is claimed with a conditional update). MANUAL subscriptions get their next invoice ahead of the period's end
 * and go past_due when it is still unpaid at the end; card providers renew themselves and report failures as
 * events. A past_due subscription is retried and mailed on days 0, 3 and 7, then canceled: the plan falls back
 * to NONE and nothing stored is deleted.
 */
export class SubscriptionDunning {
  constructor(
    private readonly repo: PgSubscriptionRepository,
    private readonly accounts: Pick<PgAccountRepository, 'user'>,
    private readonly plans: PlanService,
    private readonly taxes: Taxes,
    private readonly invoices: Invoices,
    private readonly providers: ReadonlyMap<PaymentProviderName, PaymentProvider>,
    private readonly mail: MailQueue,
    private readonly settings: DunningSettings,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** One pass of the maintenance: ends, renewal invoices, past-due periods, dunning steps. */
  async tick(): Promise<{ ended: number; invoiced: number; pastDue: number; dunned: number }> {
    const now = this.now();
    const done = { ended: 0, invoiced: 0, pastDue: 0, dunned: 0 };
    for (const sub of await this.repo.dueBefore(addDays(now, RENEWAL_INVOICE_LEAD_DAYS))) {
      try {
        await this.step(sub, now, done);
      } catch (err) {
        this.logger.error({ err, subscriptionId: sub.id }, 'subscription maintenance step failed');
      }
    }
    done.ended += (await this.plans.endExpired(now)).length;
    return done;
  }

  private async step(sub: SubscriptionRecord, now: Date, done: Record<string, number>): Promise<void> {
    const end = sub.currentPeriodEnd;
    const ended = end !== null && end.getTime() <= now.getTime();
    if (sub.cancelAtPeriodEnd && ended) {
      if (await this.end(sub, 'cancel', false)) done.ended!++;
      return;
    }
    if (sub.status === 'past_due') {
      if (sub.nextRetryAt && sub.nextRetryAt.getTime() <= now.getTime() && (await this.retry(sub)))
        done.dunned!++;
      return;
    }
    const manual = this.providers.get(sub.provider)?.collects !== 'card';
    if (!manual || !end || sub.cancelAtPeriodEnd) return;
    if (sub.status !== 'active' && sub.status !== 'trialing') return;
    if (ended) {
      const claimed = await this.repo.update(
        sub.id,
        {
          status: 'past_due',
          pastDueSince: now,
          dunningAttempt: 0,
          nextRetryAt: addDays(now, DUNNING_RETRY_DAYS[0]),
        },
        { status: sub.status, currentPeriodEnd: end },
      );
      if (claimed) {
        done.pastDue!++;
        await this.notify(claimed, 'failed');
      }
      return;
    }
    if (await this.repo.claimRenewalInvoice(sub.id, end)) {
      await this.issueRenewal(sub);
      done.invoiced!++;
    }
  }

  private async issueRenewal(sub: SubscriptionRecord): Promise<void> {
    const payer = await this.accounts.user(sub.userId);
    if (!payer) return;
    const customer = await this.repo.customer(sub.userId);
    const next = sub.pendingChange?.kind === 'downgrade' ? sub.pendingChange : null;
    const priced = next
      ? { ...sub, planCode: next.planCode, frequency: next.frequency, amount: next.amount }
      : sub;
    const invoice = await this.invoices.issue({
      buyer: {
        userId: payer.id,
        email: payer.email,
        name: payer.firstname,
        companyName: customer?.companyName ?? null,
        address: customer?.address ?? null,
        locale: payer.locale,
      },
      currency: sub.currency,
      lines: [{ description: this.settings.line(priced), quantity: 1, unitAmount: priced.amount }],
      tax: await this.taxes.decide(customer?.countryCode ?? 'FR', customer?.vatNumber ?? null),
      provider: sub.provider,
      subscriptionId: sub.id,
      status: 'open',
    });
    await this.repo.update(sub.id, { openInvoice: invoice.number });
  }

  /** A card provider says a payment failed: the user may act (SCA), and a failed renewal starts dunning. */
  async paymentFailed(
    sub: SubscriptionRecord,
    intentStatus: PaymentIntentStatus,
    clientSecret: string | null,
  ): Promise<void> {
    const intent = { intentStatus, failedIntentClientSecret: clientSecret };
    if (sub.status === 'incomplete' || sub.status === 'canceled' || sub.pastDueSince) {
      // The first payment (incomplete) waits for the user; a retry that failed again changes the intent only.
      await this.repo.update(sub.id, intent);
      return;
    }
    // Day 0, once: the provider may say it twice (the failure, and the subscription now past due).
    const now = this.now();
    const claimed = await this.repo.update(
      sub.id,
      {
        ...intent,
        status: 'past_due',
        pastDueSince: now,
        dunningAttempt: 0,
        nextRetryAt: addDays(now, DUNNING_RETRY_DAYS[0]),
      },
      { pastDueSince: null },
    );
    if (claimed) await this.notify(claimed, 'failed');
  }

  /** Day 3 and day 7: charge again (cards) or remind of the open invoice (MANUAL), mail; after day 7, end. */
  private async retry(sub: SubscriptionRecord): Promise<boolean> {
    const attempt = sub.dunningAttempt;
    const since = sub.pastDueSince ?? this.now();
    if (attempt >= DUNNING_RETRY_DAYS.length) return this.end(sub, 'dunning', true);
    const following = DUNNING_RETRY_DAYS[attempt + 1];
    const claimed = await this.repo.update(
      sub.id,
      { dunningAttempt: attempt + 1, nextRetryAt: following ? addDays(since, following) : this.now() },
      { status: 'past_due', dunningAttempt: attempt },
    );
    if (!claimed) return false;
    const provider = this.providers.get(sub.provider);
    let outcome: { status: PaymentIntentStatus; clientSecret: string | null } | null = null;
    if (provider?.collects === 'card' && sub.providerRef) {
      outcome = await provider.retryRenewal(sub.providerRef).catch((err) => {
        this.logger.warn({ err, subscriptionId: sub.id }, 'renewal retry failed');
        return null;
      });
      if (outcome)
        await this.repo.update(sub.id, {
          intentStatus: outcome.status,
          failedIntentClientSecret: outcome.clientSecret,
        });
    }
    const paying = outcome?.status === 'succeeded' || outcome?.status === 'processing';
    if (paying) {
      // A charge under way: its event activates the subscription; after the last retry, a last check a day
      // later ends it if no payment came.
      if (following === undefined) await this.repo.update(sub.id, { nextRetryAt: addDays(this.now(), 1) });
      return true;
    }
    if (following === undefined) return this.end(claimed, 'dunning', true);
    await this.notify(claimed, 'retry');
    return true;
  }

  /** Cancels the subscription and the plan falls back to NONE (files stay); true when this call ended it. */
  async end(sub: SubscriptionRecord, reason: 'cancel' | 'dunning', mail: boolean): Promise<boolean> {
    const ended = await this.repo.update(
      sub.id,
      { status: 'canceled', canceledAt: this.now(), nextRetryAt: null },
      { status: sub.status },
    );
    if (!ended) return false;
    if (reason === 'dunning' && sub.providerRef)
      await this.providers
        .get(sub.provider)
        ?.cancelNow(sub.providerRef)
        .catch((err) => this.logger.warn({ err, subscriptionId: sub.id }, 'provider cancel failed'));
    await this.plans.assign(sub.userId, { planCode: null, until: null, reason });
    // The plan it would have paid for has ended: the renewal is not owed.
    if (reason === 'dunning' && sub.openInvoice)
      await this.invoices
        .void(sub.openInvoice, null)
        .catch((err) =>
          this.logger.warn({ err, invoice: sub.openInvoice }, 'could not void the open invoice'),
        );
    if (mail) await this.notify(ended, 'ended');
    return true;
  }

  private async notify(sub: SubscriptionRecord, stage: DunningStage): Promise<void> {
    const payer = await this.accounts.user(sub.userId);
    if (!payer) return;
    const since = sub.pastDueSince ?? this.now();
    const rendered = await subscriptionDunning(
      { locale: payer.locale, productName: this.settings.productName },
      {
        stage,
        planCode: sub.planCode,
        amount: sub.amount,
        currency: sub.currency,
        byInvoice: this.providers.get(sub.provider)?.collects !== 'card',
        endsAt: addDays(since, DUNNING_RETRY_DAYS[1]),
        manageUrl: `${this.settings.publicOrigin()}/account/subscriptions`,
      },
    );
    await this.mail.enqueue({
      to: [payer.email],
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      idempotencyKey: `dunning-${sub.id}-${stage}-${since.getTime()}`,
    });
  }
}

import type { BillingFrequency, PaymentProviderName, PlanCode } from '@ferry/core';
import type { SubscriptionRecord } from '../db/subscription.repository.js';
import type { ProviderEvent } from '../payments/provider.js';
import { AppError } from './app-error.js';
import type { InvoicePaid } from './billing-ports.js';
import { SubscriptionBase } from './subscription-base.js';
import { periodEnd } from './subscription-view.js';

/**
 * Payments of subscriptions: an invoice marked paid (Invoices.onPaid) starts, renews or upgrades one; a card
 * provider's verified events (subscription.paid, payment_failed, updated, canceled) are mirrored.
 */
export class SubscriptionPayments extends SubscriptionBase {
  /** An invoice was paid (an operator marked a MANUAL one): start, renew or upgrade its subscription. */
  async invoicePaid({ invoice }: InvoicePaid): Promise<void> {
    if (!invoice.subscriptionId) return;
    const sub = await this.repo.byId(invoice.subscriptionId);
    if (!sub) return;
    if (sub.status === 'canceled') {
      this.logger.warn(
        { subscriptionId: sub.id, invoice: invoice.number },
        'invoice of a canceled subscription paid',
      );
      return;
    }
    // Ferry's clock rather than the invoice's: one time line for periods, renewals and dunning.
    const paidAt = this.now();
    if (sub.openInvoice === invoice.number) await this.repo.update(sub.id, { openInvoice: null });
    const pending = sub.pendingChange;
    if (pending?.kind === 'upgrade' && pending.invoiceNumber === invoice.number) {
      await this.activate(sub, {
        planCode: pending.planCode,
        frequency: pending.frequency,
        amount: pending.amount,
        start: paidAt,
      });
      return;
    }
    if (sub.status === 'incomplete') {
      await this.activate(sub, { start: paidAt });
      return;
    }
    // A renewal: the next period follows the one paid (or the trial).
    const from = sub.currentPeriodEnd ?? paidAt;
    await this.activate(sub, {
      ...(pending?.kind === 'downgrade' ? pending : {}),
      start: from,
      expectPeriodEnd: sub.currentPeriodEnd,
    });
  }

  /** Called by the webhook routes once per verified provider event (the providers' branch de-duplicates). */
  async handleProviderEvent(providerName: PaymentProviderName, event: ProviderEvent): Promise<void> {
    if (!('subscriptionRef' in event)) return;
    let sub = await this.repo.byProviderRef(providerName, event.subscriptionRef);
    if (!sub) {
      // Its webhook can outrun the answer that tells Ferry the provider's id: refused, so that the provider sends
      // it again (the webhook route must not count it as processed).
      this.logger.warn(
        { provider: providerName, event: event.kind, ref: event.subscriptionRef },
        'event of an unknown subscription',
      );
      throw new AppError('CONFLICT', 'No subscription has this reference yet.', {
        details: { subscriptionRef: event.subscriptionRef },
      });
    }
    switch (event.kind) {
      case 'subscription.paid':
        return this.providerPaid(sub, event);
      case 'subscription.payment_failed':
        return this.dunning.paymentFailed(sub, event.intentStatus, event.clientSecret);
      case 'subscription.updated': {
        if (event.status === 'canceled') {
          await this.dunning.end(sub, 'cancel', false);
          return;
        }
        if (event.status === 'past_due') {
          // A renewal failed: dunning starts (once, whichever of this and payment_failed comes first).
          await this.dunning.paymentFailed(sub, sub.intentStatus ?? 'requires_payment_method', null);
          sub = (await this.repo.byId(sub.id)) ?? sub;
        }
        const updated = await this.repo.update(sub.id, {
          status: event.status,
          currentPeriodEnd: event.currentPeriodEnd ?? sub.currentPeriodEnd,
          cancelAtPeriodEnd: event.cancelAtPeriodEnd,
          ...(event.status === 'active' ? { pastDueSince: null, nextRetryAt: null, dunningAttempt: 0 } : {}),
        });
        if (event.status === 'active' || event.status === 'trialing' || event.status === 'past_due')
          await this.plans.assign(sub.userId, {
            planCode: (updated ?? sub).planCode,
            until: event.cancelAtPeriodEnd ? (event.currentPeriodEnd ?? sub.currentPeriodEnd) : null,
            reason: 'subscription',
          });
        return;
      }
      case 'subscription.canceled':
        await this.dunning.end(sub, 'cancel', false);
        return;
    }
  }

  private async providerPaid(
    sub: SubscriptionRecord,
    event: Extract<ProviderEvent, { kind: 'subscription.paid' }>,
  ): Promise<void> {
    if (
      sub.status === 'active' &&
      sub.currentPeriodEnd?.getTime() === event.periodEnd.getTime() &&
      sub.intentStatus === 'succeeded'
    )
      return;
    // A trial's invoice of nothing: the trial goes on, and there is nothing to invoice.
    if (event.amountPaid === 0 && sub.status === 'trialing') return;
    const pending = sub.pendingChange;
    const next = pending?.kind === 'downgrade' ? pending : null;
    const activated = await this.activate(sub, {
      ...(next ?? {}),
      start: event.periodStart,
      end: event.periodEnd,
    });
    const payer = await this.accounts.user(sub.userId);
    if (!payer || !activated || event.amountPaid === 0) return;
    const customer = await this.repo.customer(payer.id);
    const tax = await this.taxes.decide(customer?.countryCode ?? 'FR', customer?.vatNumber ?? null);
    // The invoice states what was charged: the price before VAT is taken back from the amount paid.
    const net = Math.round((event.amountPaid * 100) / (100 + tax.rate));
    await this.invoices.issue({
      buyer: this.buyer(payer, customer),
      currency: event.currency,
      lines: [
        { description: this.line(activated.planCode, activated.frequency), quantity: 1, unitAmount: net },
      ],
      tax,
      provider: sub.provider,
      subscriptionId: sub.id,
      status: 'paid',
      paymentRef: event.paymentRef,
    });
  }

  /** The subscription is paid for a period: active, dunning over, the plan assigned (no end). */
  private async activate(
    sub: SubscriptionRecord,
    next: {
      planCode?: PlanCode;
      frequency?: BillingFrequency;
      amount?: number;
      start: Date;
      end?: Date;
      expectPeriodEnd?: Date | null;
    },
  ): Promise<SubscriptionRecord | null> {
    const frequency = next.frequency ?? sub.frequency;
    const planCode = next.planCode ?? sub.planCode;
    const updated = await this.repo.update(
      sub.id,
      {
        status: 'active',
        planCode,
        frequency,
        amount: next.amount ?? sub.amount,
        currentPeriodStart: next.start,
        currentPeriodEnd: next.end ?? periodEnd(next.start, frequency),
        pendingChange: null,
        intentStatus: 'succeeded',
        failedIntentClientSecret: null,
        pastDueSince: null,
        dunningAttempt: 0,
        nextRetryAt: null,
      },
      next.expectPeriodEnd !== undefined ? { currentPeriodEnd: next.expectPeriodEnd } : {},
    );
    if (!updated) return null;
    await this.plans.assign(sub.userId, {
      planCode,
      until: updated.cancelAtPeriodEnd ? updated.currentPeriodEnd : null,
      reason: 'subscription',
    });
    return updated;
  }
}

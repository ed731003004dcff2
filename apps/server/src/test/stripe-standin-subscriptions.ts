import { randomBytes } from 'node:crypto';
import type { Json } from './stripe-standin-http.js';
import { addInterval } from './stripe-standin-objects.js';
import { StripePayments } from './stripe-standin-payments.js';

/* Subscriptions in the Stripe stand-in: start (trials too), change with or without proration, cancel, renew. */

export abstract class StripeSubscriptions extends StripePayments {
  /** The next charge made without the customer (a renewal, a retry) is declined. */
  failNextRenewal(): void {
    this.failNext = true;
  }

  /** Moves the clock on and renews every subscription whose period (or trial) has ended. */
  advanceClock(seconds: number): void {
    this.clockOffset += seconds;
    for (const sub of [...this.objects.values()].filter((o) => o.object === 'subscription'))
      if (
        ['active', 'trialing', 'past_due'].includes(sub.status) &&
        sub.items.data[0].current_period_end <= this.now()
      )
        this.renewNow(sub.id);
  }

  /** Ends the current period (or trial) of a subscription now: Stripe invoices the next one and charges it. */
  renewNow(subscriptionId: string): Json {
    const sub = this.get(subscriptionId);
    const item = sub.items.data[0];
    const start = item.current_period_end;
    this.clockOffset = Math.max(this.clockOffset, start - Math.floor(Date.now() / 1000));
    if (sub.cancel_at_period_end) {
      this.cancel(sub);
      return sub;
    }
    item.current_period_start = start;
    item.current_period_end = addInterval(start, item.price.recurring);
    const wasTrial = sub.status === 'trialing';
    const invoice = this.createInvoice(sub, 'subscription_cycle', [
      { amount: item.price.unit_amount, description: sub.description, start, end: item.current_period_end },
    ]);
    if (wasTrial) sub.status = 'active';
    this.payOffSession(invoice);
    if (invoice.status !== 'paid') sub.status = 'past_due';
    this.emit('customer.subscription.updated', sub);
    return invoice;
  }

  protected createSubscription(p: Json): Json {
    const customer = this.get(p.customer);
    const price = this.createPrice(p.items?.[0]?.price_data);
    const now = this.now();
    const trialDays = Number(p.trial_period_days ?? 0);
    const trialEnd = trialDays > 0 ? now + trialDays * 86_400 : null;
    const sub = this.put({
      id: this.id('sub'),
      object: 'subscription',
      created: now,
      customer: customer.id,
      description: p.description ?? null,
      status: trialEnd ? 'trialing' : 'incomplete',
      metadata: p.metadata || {},
      items: {
        object: 'list',
        data: [
          {
            id: this.id('si'),
            object: 'subscription_item',
            price,
            quantity: 1,
            current_period_start: now,
            current_period_end: trialEnd ?? addInterval(now, price.recurring),
          },
        ],
      },
      cancel_at_period_end: false,
      canceled_at: null,
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      default_payment_method: null,
      pending_setup_intent: null,
      latest_invoice: null,
      payment_settings: p.payment_settings ?? null,
    });
    const item = sub.items.data[0];
    const invoice = this.createInvoice(sub, 'subscription_create', [
      {
        amount: trialEnd ? 0 : price.unit_amount,
        description: sub.description,
        start: now,
        end: item.current_period_end,
      },
    ]);
    this.emit('customer.subscription.created', sub);
    if (trialEnd) {
      this.markPaid(invoice, null);
      sub.pending_setup_intent = this.put({
        id: this.id('seti'),
        object: 'setup_intent',
        status: 'requires_payment_method',
        customer: customer.id,
        payment_method: null,
        usage: 'off_session',
        last_setup_error: null,
        next_action: null,
        _subscription: sub.id,
      }).id;
      const setup = this.get(sub.pending_setup_intent);
      setup.client_secret = `${setup.id}_secret_${randomBytes(12).toString('hex')}`;
    }
    return sub;
  }

  protected updateSubscription(sub: Json, p: Json): Json {
    if (p.cancel_at_period_end !== undefined) sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
    if (p.metadata && typeof p.metadata === 'object')
      for (const [k, v] of Object.entries(p.metadata)) {
        if (v === '') delete sub.metadata[k];
        else sub.metadata[k] = v;
      }
    const change = p.items?.[0];
    if (change?.price_data) {
      const item = sub.items.data.find((i: Json) => i.id === change.id) ?? sub.items.data[0];
      const old = item.price;
      const price = this.createPrice(change.price_data);
      const now = this.now();
      const sameCycle =
        old.recurring.interval === price.recurring.interval &&
        old.recurring.interval_count === price.recurring.interval_count;
      const unused =
        Math.max(0, item.current_period_end - now) / (item.current_period_end - item.current_period_start);
      item.price = price;
      const lines: Json[] = [];
      if (sameCycle) {
        if (p.proration_behavior === 'always_invoice')
          lines.push({
            amount: Math.round((price.unit_amount - old.unit_amount) * unused),
            description: `Remaining time on ${sub.description ?? 'the new plan'}`,
            start: now,
            end: item.current_period_end,
          });
      } else {
        // A new interval starts a new cycle now: the new price in full, less the unused time when prorating.
        item.current_period_start = now;
        item.current_period_end = addInterval(now, price.recurring);
        lines.push({
          amount: price.unit_amount,
          description: sub.description,
          start: now,
          end: item.current_period_end,
        });
        if (p.proration_behavior !== 'none')
          lines.push({
            amount: -Math.round(old.unit_amount * unused),
            description: 'Unused time',
            start: now,
            end: now,
          });
      }
      if (lines.length && sub.status !== 'trialing') {
        const invoice = this.createInvoice(sub, 'subscription_update', lines);
        if (invoice.amount_due > 0) this.payOffSession(invoice);
        else this.markPaid(invoice, null);
      }
    }
    this.emit('customer.subscription.updated', sub);
    return sub;
  }

  protected cancel(sub: Json): Json {
    sub.status = 'canceled';
    sub.canceled_at = this.now();
    this.emit('customer.subscription.deleted', sub);
    return sub;
  }
}

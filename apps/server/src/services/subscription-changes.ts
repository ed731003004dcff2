import {
  type BillingFrequency,
  ChangeSubscriptionRequest,
  type ChangeSubscriptionResponse,
  type PaymentProviderName,
} from '@ferry/core';
import type { UserRecord } from '../db/account.repository.js';
import type { SubscriptionRecord } from '../db/subscription.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { SubscriptionBase } from './subscription-base.js';
import { invoiceSummary, monthly, subscriptionView, unusedCredit } from './subscription-view.js';

const secret = (clientSecret: string | null) => (clientSecret ? { clientSecret } : {});

/** Changing a subscription: plan, frequency (upgrades prorated, downgrades from the next period), provider. */
export class SubscriptionChanges extends SubscriptionBase {
  async change(
    auth: Authenticated | null,
    id: string,
    input: ChangeSubscriptionRequest,
  ): Promise<ChangeSubscriptionResponse> {
    const request = ChangeSubscriptionRequest.parse(input);
    const { payer, sub } = await this.own(auth, id);
    let current = sub;
    let clientSecret: string | null = null;
    if (request.provider && request.provider !== sub.provider) {
      const switched = await this.switchProvider(current, payer, request.provider);
      current = switched.sub;
      clientSecret = switched.clientSecret;
    }
    const planCode = request.planCode ?? current.planCode;
    const frequency = request.frequency ?? current.frequency;
    if (planCode === current.planCode && frequency === current.frequency) {
      if (!current.pendingChange)
        return { subscription: subscriptionView(current), invoice: null, ...secret(clientSecret) };
      // Back to the plan it has: the change waiting is dropped (and an upgrade's invoice with it).
      await this.voidUpgradeInvoice(current);
      const kept = await this.repo.update(current.id, { pendingChange: null });
      return { subscription: subscriptionView(kept ?? current), invoice: null, ...secret(clientSecret) };
    }
    const amount = this.priceOf(planCode, frequency, current.currency);
    const now = this.now();
    if (current.status === 'incomplete')
      throw new AppError(
        'CONFLICT',
        'The first payment is still due: pay it or cancel before changing plan.',
      );
    // A new change replaces one waiting: an upgrade's unpaid invoice is not owed any more.
    await this.voidUpgradeInvoice(current);
    if (current.status === 'trialing') {
      // Nothing is paid during a trial: the new plan holds at once, at its price after the trial.
      const changed = await this.repo.update(current.id, {
        planCode,
        frequency,
        amount,
        pendingChange: null,
      });
      await this.changeAtProvider(current, { planCode, frequency, amount, prorate: false });
      await this.plans.assign(payer.id, { planCode, until: null, reason: 'subscription' });
      return { subscription: subscriptionView(changed ?? current), invoice: null, ...secret(clientSecret) };
    }
    if (!this.isUpgrade(current, planCode, frequency, amount)) {
      // A downgrade, or another frequency of the same plan, starts with the next period.
      const changed = await this.repo.update(current.id, {
        pendingChange: { kind: 'downgrade', planCode, frequency, amount },
      });
      await this.changeAtProvider(current, { planCode, frequency, amount, prorate: false });
      return { subscription: subscriptionView(changed ?? current), invoice: null, ...secret(clientSecret) };
    }
    // An upgrade: the unused part of the current period is credited against the new price, charged now.
    const credit = unusedCredit(current, now);
    const charge = Math.max(0, amount - credit);
    const provider = this.provider(current.provider, false);
    if (provider.collects === 'invoice') {
      const customer = await this.repo.customer(payer.id);
      const tax = await this.taxes.decide(customer?.countryCode ?? 'FR', customer?.vatNumber ?? null);
      const line = `${this.line(planCode, frequency)} (${this.formatCredit(credit, current)})`;
      const invoice = await this.issue(current, payer, customer, tax, line, charge);
      const changed = await this.repo.update(current.id, {
        pendingChange: { kind: 'upgrade', planCode, frequency, amount, invoiceNumber: invoice.number },
      });
      return { subscription: subscriptionView(changed ?? current), invoice: invoiceSummary(invoice) };
    }
    const result = await this.changeAtProvider(current, { planCode, frequency, amount, prorate: true });
    const changed = await this.repo.update(current.id, {
      planCode,
      frequency,
      amount,
      pendingChange: null,
      intentStatus: result?.intentStatus ?? current.intentStatus,
      currentPeriodStart: result?.currentPeriodStart ?? current.currentPeriodStart,
      currentPeriodEnd: result?.currentPeriodEnd ?? current.currentPeriodEnd,
    });
    await this.plans.assign(payer.id, { planCode, until: null, reason: 'subscription' });
    return {
      subscription: subscriptionView(changed ?? current),
      invoice: null,
      ...secret(clientSecret ?? result?.clientSecret ?? null),
    };
  }

  /** Another way to pay from the next charge on; the period already paid stays. */
  private async switchProvider(
    sub: SubscriptionRecord,
    payer: UserRecord,
    name: PaymentProviderName,
  ): Promise<{ sub: SubscriptionRecord; clientSecret: string | null }> {
    const next = this.provider(name);
    const previous = this.providers.get(sub.provider);
    let ref = sub.id;
    let clientSecret: string | null = null;
    let intentStatus = sub.intentStatus;
    if (next.collects === 'card') {
      const customer =
        (await this.repo.customer(payer.id)) ??
        (await this.repo.saveCustomer({
          userId: payer.id,
          countryCode: null,
          vatNumber: null,
          vatNumberValid: null,
          companyName: null,
          address: null,
          currency: sub.currency,
          provider: name,
        }));
      const end = sub.currentPeriodEnd ?? sub.trialEndsAt;
      // The provider charges from the end of what is paid already: until then it is a trial at its side.
      const daysLeft = end ? Math.max(0, Math.ceil((end.getTime() - this.now().getTime()) / 86_400_000)) : 0;
      const result = await next.startSubscription({
        subscriptionId: sub.id,
        customerRef: await this.customerRef(payer, customer, next),
        planCode: sub.planCode,
        frequency: sub.frequency,
        currency: sub.currency,
        amount: sub.amount,
        taxRate: sub.taxRate,
        trialDays: daysLeft,
        description: this.line(sub.planCode, sub.frequency),
      });
      ref = result.ref;
      clientSecret = result.clientSecret;
      intentStatus = result.intentStatus;
    }
    if (previous && previous.collects === 'card' && sub.providerRef)
      await previous.cancelNow(sub.providerRef);
    // An invoice waiting for a bank transfer is not owed once a card pays instead.
    if (next.collects === 'card') await this.voidOpenInvoice(sub);
    const updated = await this.repo.update(sub.id, {
      provider: name,
      providerRef: ref,
      intentStatus,
      ...(next.collects === 'card' ? { openInvoice: null, renewalInvoiceFor: null } : {}),
    });
    const customer = await this.repo.customer(payer.id);
    if (customer) await this.repo.saveCustomer({ ...customer, provider: name });
    return { sub: updated ?? sub, clientSecret };
  }

  /**
   * A bigger plan: it costs more than the current one at the current frequency (a plan priced only at another
   * frequency is compared per month). Changing the frequency alone is never an upgrade: the period paid runs out.
   */
  private isUpgrade(
    current: SubscriptionRecord,
    planCode: SubscriptionRecord['planCode'],
    frequency: BillingFrequency,
    amount: number,
  ): boolean {
    if (planCode === current.planCode) return false;
    const atCurrentFrequency = this.catalogue.price(planCode, current.frequency, current.currency);
    if (atCurrentFrequency !== null) return atCurrentFrequency > current.amount;
    return monthly(amount, frequency) > monthly(current.amount, current.frequency);
  }
}

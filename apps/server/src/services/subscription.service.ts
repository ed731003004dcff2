import {
  type BillingCustomer,
  type ChangeSubscriptionRequest,
  type ChangeSubscriptionResponse,
  type CurrentSubscription,
  type PaymentInfos,
  type PaymentProviderName,
  type PlanCatalogue,
  StartSubscriptionRequest,
  type StartSubscriptionResponse,
} from '@ferry/core';
import type { UserRecord } from '../db/account.repository.js';
import type { CustomerRecord, SubscriptionRecord } from '../db/subscription.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import type { PaymentProvider, ProviderEvent } from '../payments/provider.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { SubscriptionBase } from './subscription-base.js';
import { SubscriptionChanges } from './subscription-changes.js';
import { SubscriptionPayments } from './subscription-payments.js';
import { addDays, invoiceSummary, subscriptionView } from './subscription-view.js';

export type { SubscriptionSettings } from './subscription-base.js';

/**
 * Subscriptions (spec §3, §7 /pay/*): starting one (MANUAL: an open invoice; a card provider: its payment
 * intent), changing plan, frequency or provider (upgrades prorated), cancelling at the period's end, resuming,
 * the billing customer and payment infos. Plans start when a payment is known: an invoice marked paid
 * (Invoices.onPaid) or a card provider's event (handleProviderEvent, called by the webhook routes).
 */
export class SubscriptionService extends SubscriptionBase {
  private readonly payments: SubscriptionPayments;
  private readonly changes: SubscriptionChanges;

  constructor(...peers: ConstructorParameters<typeof SubscriptionPayments>) {
    super(...peers);
    this.payments = new SubscriptionPayments(...peers);
    this.changes = new SubscriptionChanges(...peers);
    this.invoices.onPaid((paid) => this.payments.invoicePaid(paid));
  }

  catalogueOf(): PlanCatalogue {
    return this.catalogue.offers();
  }

  // --- starting -------------------------------------------------------------------------------------------

  async start(
    auth: Authenticated | null,
    input: StartSubscriptionRequest,
  ): Promise<StartSubscriptionResponse> {
    const request = StartSubscriptionRequest.parse(input);
    const payer = await this.payers.payerOf(auth);
    const provider = this.provider(request.provider);
    const currency = request.currency ?? this.catalogue.currencies()[0] ?? 'EUR';
    const amount = this.priceOf(request.planCode, request.frequency, currency);
    if (await this.repo.live(payer.id))
      throw new AppError('CONFLICT', 'This account has a subscription already: change it instead.');
    const tax = await this.taxes.decide(request.countryCode, request.vatNumber ?? null, { strict: true });
    const customer = await this.repo.saveCustomer({
      userId: payer.id,
      countryCode: tax.countryCode,
      vatNumber: tax.vatNumber,
      vatNumberValid: tax.vatNumberValid,
      companyName: request.companyName ?? null,
      address: request.address ?? null,
      currency,
      provider: provider.name,
    });
    const trial = request.trial === true && this.settings.trialDays > 0;
    if (trial && !(await this.repo.claimTrial(payer.id)))
      throw new AppError('CONFLICT', 'This account has had its trial already.', {
        details: { field: 'trial' },
      });
    const now = this.now();
    const trialEnd = trial ? addDays(now, this.settings.trialDays) : null;
    const id = `sub_${randomAlphanumeric(20)}`;
    const sub = await this.repo.create({
      id,
      userId: payer.id,
      planCode: request.planCode,
      frequency: request.frequency,
      currency,
      amount,
      taxRate: tax.rate,
      provider: provider.name,
      providerRef: provider.collects === 'invoice' ? id : null,
      status: trial ? 'trialing' : 'incomplete',
      currentPeriodStart: trial ? now : null,
      currentPeriodEnd: trialEnd,
      trialEndsAt: trialEnd,
      cancelAtPeriodEnd: false,
      pendingChange: null,
      intentStatus: null,
      failedIntentClientSecret: null,
      renewalInvoiceFor: null,
    });
    if (!sub) throw new AppError('CONFLICT', 'This account has a subscription already: change it instead.');
    await this.plans.checkoutStarted([payer.id, auth!.user.id]);
    if (trial)
      await this.plans.assign(payer.id, { planCode: sub.planCode, until: null, reason: 'subscription' });
    if (provider.collects === 'invoice') {
      if (trial) return { subscriptionId: id, status: 'trialing', invoice: null };
      const invoice = await this.issue(
        sub,
        payer,
        customer,
        tax,
        this.line(sub.planCode, sub.frequency),
        amount,
      );
      await this.repo.update(sub.id, { openInvoice: invoice.number });
      return { subscriptionId: id, status: 'incomplete', invoice: invoiceSummary(invoice) };
    }
    return this.startAtProvider(sub, payer, customer, provider, trial ? this.settings.trialDays : 0);
  }

  private async startAtProvider(
    sub: SubscriptionRecord,
    payer: UserRecord,
    customer: CustomerRecord,
    provider: PaymentProvider,
    trialDays: number,
  ): Promise<StartSubscriptionResponse> {
    try {
      const customerRef = await this.customerRef(payer, customer, provider);
      const result = await provider.startSubscription({
        subscriptionId: sub.id,
        customerRef,
        planCode: sub.planCode,
        frequency: sub.frequency,
        currency: sub.currency,
        amount: sub.amount,
        taxRate: sub.taxRate,
        trialDays,
        description: this.line(sub.planCode, sub.frequency),
      });
      const started = await this.repo.update(sub.id, {
        providerRef: result.ref,
        status: result.status,
        intentStatus: result.intentStatus,
        failedIntentClientSecret: needsAction(result.intentStatus) ? result.clientSecret : null,
        currentPeriodStart: result.currentPeriodStart ?? sub.currentPeriodStart,
        currentPeriodEnd: result.currentPeriodEnd ?? sub.currentPeriodEnd,
        trialEndsAt: result.trialEndsAt ?? sub.trialEndsAt,
      });
      if (result.status === 'active' || result.status === 'trialing')
        await this.plans.assign(payer.id, { planCode: sub.planCode, until: null, reason: 'subscription' });
      return {
        subscriptionId: sub.id,
        status: started?.status ?? result.status,
        invoice: null,
        ...(result.clientSecret ? { clientSecret: result.clientSecret } : {}),
        ...(result.approveUrl ? { approveUrl: result.approveUrl } : {}),
      };
    } catch (error) {
      // Nothing was bought: the account may start again.
      await this.repo.update(sub.id, { status: 'canceled', canceledAt: this.now() });
      if (sub.status === 'trialing')
        await this.plans.assign(payer.id, { planCode: null, until: null, reason: 'cancel' });
      throw error;
    }
  }

  // --- reading ------------------------------------------------------------------------------------------

  async current(auth: Authenticated | null): Promise<CurrentSubscription> {
    const payer = await this.payers.payerOf(auth);
    const sub = await this.repo.live(payer.id);
    return { subscription: sub ? subscriptionView(sub) : null };
  }

  async customer(auth: Authenticated | null, managerId: string): Promise<BillingCustomer> {
    const payer = await this.payers.readable(auth, managerId);
    const c = await this.repo.customer(payer.id);
    return {
      id: payer.id,
      email: payer.email,
      name: payer.firstname,
      companyName: c?.companyName ?? null,
      address: c?.address ?? null,
      countryCode: c?.countryCode ?? null,
      vatNumber: c?.vatNumber ?? null,
      vatNumberValid: c?.vatNumberValid ?? null,
      currency: c?.currency ?? null,
      provider: c?.provider ?? null,
    };
  }

  async paymentInfos(auth: Authenticated | null, managerId: string): Promise<PaymentInfos> {
    const payer = await this.payers.readable(auth, managerId);
    const sub = await this.repo.live(payer.id);
    if (!sub) return { subscription: null, defaultPaymentMethod: null };
    const provider = this.providers.get(sub.provider);
    const customer = await this.repo.customer(payer.id);
    const ref = customer?.providerRefs[sub.provider];
    const card = provider?.collects === 'card' && ref ? await provider.defaultCard(ref) : null;
    return {
      subscription: {
        planType: subscriptionView(sub).planType,
        planCode: sub.planCode,
        provider: sub.provider,
        status: sub.status,
        intentStatus: sub.intentStatus,
        failedIntentClientSecret: sub.failedIntentClientSecret,
        openedInvoicesAmount: await this.invoices.openAmount(payer.id),
        currency: sub.currency,
      },
      defaultPaymentMethod: card ? { type: 'card', card } : null,
    };
  }

  async change(
    auth: Authenticated | null,
    id: string,
    input: ChangeSubscriptionRequest,
  ): Promise<ChangeSubscriptionResponse> {
    return this.changes.change(auth, id, input);
  }

  async cancel(auth: Authenticated | null, id: string): Promise<CurrentSubscription> {
    const { payer, sub } = await this.own(auth, id);
    if (sub.status === 'incomplete') {
      // Nothing was paid: it ends now, and nothing was granted.
      if (sub.providerRef) await this.providers.get(sub.provider)?.cancelNow(sub.providerRef);
      await this.repo.update(sub.id, { status: 'canceled', canceledAt: this.now() });
      await this.voidOpenInvoice(sub);
      await this.voidUpgradeInvoice(sub);
      return { subscription: null };
    }
    if (sub.providerRef) await this.provider(sub.provider, false).setCancelAtPeriodEnd(sub.providerRef, true);
    // A renewal invoice issued ahead is not owed any more (a resume issues it again), nor an unpaid upgrade.
    await this.voidOpenInvoice(sub);
    await this.voidUpgradeInvoice(sub);
    const updated = await this.repo.update(sub.id, {
      cancelAtPeriodEnd: true,
      pendingChange: null,
      openInvoice: null,
      renewalInvoiceFor: null,
    });
    await this.plans.assign(payer.id, {
      planCode: sub.planCode,
      until: sub.currentPeriodEnd ?? this.now(),
      reason: 'cancel',
    });
    return { subscription: subscriptionView(updated ?? sub) };
  }

  async resume(auth: Authenticated | null, id: string): Promise<CurrentSubscription> {
    const { payer, sub } = await this.own(auth, id);
    if (sub.providerRef)
      await this.provider(sub.provider, false).setCancelAtPeriodEnd(sub.providerRef, false);
    const updated = await this.repo.update(sub.id, { cancelAtPeriodEnd: false });
    if (sub.status !== 'incomplete')
      await this.plans.assign(payer.id, { planCode: sub.planCode, until: null, reason: 'subscription' });
    return { subscription: subscriptionView(updated ?? sub) };
  }

  /** An operator ends a plan at once (set-plan NONE): the running subscription is canceled now. */
  async cancelNow(userId: string): Promise<void> {
    const sub = await this.repo.live(userId);
    if (!sub) return;
    if (sub.providerRef) await this.providers.get(sub.provider)?.cancelNow(sub.providerRef);
    await this.repo.update(sub.id, { status: 'canceled', canceledAt: this.now() });
    await this.voidOpenInvoice(sub);
    await this.voidUpgradeInvoice(sub);
  }

  /** Called by the webhook routes once per verified provider event (the providers' branch de-duplicates). */
  async handleProviderEvent(providerName: PaymentProviderName, event: ProviderEvent): Promise<void> {
    return this.payments.handleProviderEvent(providerName, event);
  }
}

const needsAction = (status: string | null) =>
  status === 'requires_action' || status === 'requires_confirmation';

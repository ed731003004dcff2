import {
  type BillingCustomer,
  type BillingFrequency,
  ChangeSubscriptionRequest,
  type ChangeSubscriptionResponse,
  type CurrentSubscription,
  type PaymentInfos,
  type PaymentProviderName,
  type PlanCatalogue,
  type PlanCode,
  StartSubscriptionRequest,
  type StartSubscriptionResponse,
} from '@ferry/core';
import type { Logger } from 'pino';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import type {
  CustomerRecord,
  PgSubscriptionRepository,
  SubscriptionRecord,
} from '../db/subscription.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import type { Catalogue } from '../payments/catalogue.js';
import type { PaymentProvider, ProviderEvent } from '../payments/provider.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { BillingAccounts } from './billing-account.js';
import type { Buyer, InvoicePaid, Invoices, IssuedInvoice, TaxDecision, Taxes } from './billing-ports.js';
import type { PlanService } from './plan.service.js';
import type { SubscriptionDunning } from './subscription-dunning.js';
import {
  addDays,
  invoiceSummary,
  monthly,
  periodEnd,
  subscriptionLine,
  subscriptionView,
  unusedCredit,
} from './subscription-view.js';

export interface SubscriptionSettings {
  /** PAYMENT_PROVIDERS: what a buyer may pick. */
  providers: readonly PaymentProviderName[];
  trialDays: number;
  productName: string;
}

const notFound = () => new AppError('NOT_FOUND', 'No such subscription.');

/**
 * Subscriptions (spec §3, §7 /pay/*): starting one (MANUAL: an open invoice; a card provider: its payment
 * intent), changing plan, frequency or provider (upgrades prorated), cancelling at the period's end, resuming,
 * the billing customer and payment infos. Plans start when a payment is known: an invoice marked paid
 * (Invoices.onPaid) or a card provider's event (handleProviderEvent, called by the webhook routes).
 */
export class SubscriptionService {
  constructor(
    private readonly repo: PgSubscriptionRepository,
    private readonly accounts: Pick<PgAccountRepository, 'user'>,
    private readonly payers: BillingAccounts,
    private readonly plans: PlanService,
    private readonly taxes: Taxes,
    private readonly invoices: Invoices,
    private readonly catalogue: Catalogue,
    /** MANUAL, and the card providers the integrator wires from payments/stripe.ts and paypal.ts. */
    private readonly providers: ReadonlyMap<PaymentProviderName, PaymentProvider>,
    private readonly dunning: SubscriptionDunning,
    private readonly settings: SubscriptionSettings,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    invoices.onPaid((paid) => this.invoicePaid(paid));
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

  // --- changing -----------------------------------------------------------------------------------------

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
    if (planCode === current.planCode && frequency === current.frequency && !current.pendingChange)
      return { subscription: subscriptionView(current), invoice: null, ...secret(clientSecret) };
    const amount = this.priceOf(planCode, frequency, current.currency);
    const now = this.now();
    if (current.status === 'incomplete')
      throw new AppError(
        'CONFLICT',
        'The first payment is still due: pay it or cancel before changing plan.',
      );
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
    if (monthly(amount, frequency) <= monthly(current.amount, current.frequency)) {
      // A downgrade (or the same plan, longer) starts with the next period.
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

  async cancel(auth: Authenticated | null, id: string): Promise<CurrentSubscription> {
    const { payer, sub } = await this.own(auth, id);
    if (sub.status === 'incomplete') {
      // Nothing was paid: it ends now, and nothing was granted.
      if (sub.providerRef) await this.providers.get(sub.provider)?.cancelNow(sub.providerRef);
      await this.repo.update(sub.id, { status: 'canceled', canceledAt: this.now() });
      await this.voidOpenInvoice(sub);
      return { subscription: null };
    }
    if (sub.providerRef) await this.provider(sub.provider, false).setCancelAtPeriodEnd(sub.providerRef, true);
    // A renewal invoice issued ahead is not owed any more (a resume issues it again).
    await this.voidOpenInvoice(sub);
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
  }

  // --- payments -----------------------------------------------------------------------------------------

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
    const sub = await this.repo.byProviderRef(providerName, event.subscriptionRef);
    if (!sub) {
      this.logger.warn(
        { provider: providerName, event: event.kind, ref: event.subscriptionRef },
        'event of an unknown subscription',
      );
      return;
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
        const updated = await this.repo.update(sub.id, {
          status: event.status,
          currentPeriodEnd: event.currentPeriodEnd ?? sub.currentPeriodEnd,
          cancelAtPeriodEnd: event.cancelAtPeriodEnd,
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
    const pending = sub.pendingChange;
    const next = pending?.kind === 'downgrade' ? pending : null;
    const activated = await this.activate(sub, {
      ...(next ?? {}),
      start: event.periodStart,
      end: event.periodEnd,
    });
    const payer = await this.accounts.user(sub.userId);
    if (!payer || !activated) return;
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

  // --- helpers ------------------------------------------------------------------------------------------

  /** Voids the open invoice the subscription waits on, if any (not an upgrade's: that one is its own). */
  private async voidOpenInvoice(sub: SubscriptionRecord): Promise<void> {
    if (!sub.openInvoice) return;
    await this.invoices.void(sub.openInvoice, null).catch((err) => {
      this.logger.warn({ err, invoice: sub.openInvoice }, 'could not void the open invoice');
    });
  }

  /** Issues an open invoice of one line for a subscription (MANUAL: first payment, renewal, upgrade). */
  async issue(
    sub: SubscriptionRecord,
    payer: UserRecord,
    customer: CustomerRecord | null,
    tax: TaxDecision,
    description: string,
    amount: number,
  ): Promise<IssuedInvoice> {
    return this.invoices.issue({
      buyer: this.buyer(payer, customer),
      currency: sub.currency,
      lines: [{ description, quantity: 1, unitAmount: amount }],
      tax,
      provider: sub.provider,
      subscriptionId: sub.id,
      status: 'open',
    });
  }

  line(planCode: PlanCode, frequency: BillingFrequency): string {
    return subscriptionLine(this.settings.productName, planCode, frequency);
  }

  private formatCredit(credit: number, sub: SubscriptionRecord): string {
    return `less ${(credit / 100).toFixed(2)} ${sub.currency} unused of ${sub.planCode}`;
  }

  private buyer(payer: UserRecord, customer: CustomerRecord | null): Buyer {
    return {
      userId: payer.id,
      email: payer.email,
      name: payer.firstname,
      companyName: customer?.companyName ?? null,
      address: customer?.address ?? null,
      locale: payer.locale,
    };
  }

  private priceOf(planCode: PlanCode, frequency: BillingFrequency, currency: SubscriptionRecord['currency']) {
    if (planCode === 'CUSTOM')
      throw new AppError('VALIDATION_FAILED', 'CUSTOM plans are sold by contract: contact us.', {
        details: { field: 'planCode' },
      });
    const amount = this.catalogue.price(planCode, frequency, currency);
    if (amount === null)
      throw new AppError('VALIDATION_FAILED', `${planCode} is not sold ${frequency} in ${currency}.`, {
        details: { field: 'planCode' },
      });
    return amount;
  }

  /** A provider a buyer may pick now (`offered`), or the one a subscription already uses. */
  private provider(name: PaymentProviderName, offered = true): PaymentProvider {
    const provider = this.providers.get(name);
    if (!provider || (offered && !this.settings.providers.includes(name)))
      throw new AppError('PAYMENT_PROVIDER_NOT_AVAILABLE', `${name} is not offered here.`, {
        details: { provider: name, providers: this.settings.providers },
      });
    return provider;
  }

  private async customerRef(payer: UserRecord, customer: CustomerRecord, provider: PaymentProvider) {
    const existing = customer.providerRefs[provider.name] ?? null;
    const ref = await provider.ensureCustomer(
      { userId: payer.id, email: payer.email, name: payer.firstname, countryCode: customer.countryCode },
      existing,
    );
    if (ref !== existing)
      await this.repo.saveCustomer({ ...customer, providerRefs: { [provider.name]: ref } });
    return ref;
  }

  private async changeAtProvider(
    sub: SubscriptionRecord,
    change: { planCode: PlanCode; frequency: BillingFrequency; amount: number; prorate: boolean },
  ) {
    const provider = this.providers.get(sub.provider);
    if (!provider || provider.collects === 'invoice' || !sub.providerRef) return null;
    return provider.changeSubscription(sub.providerRef, change);
  }

  /** The caller's paying account and its live subscription `id`; 404 for anyone else's. */
  private async own(auth: Authenticated | null, id: string) {
    const payer = await this.payers.payerOf(auth);
    const sub = await this.repo.byId(id);
    if (!sub || sub.userId !== payer.id || sub.status === 'canceled') throw notFound();
    return { payer, sub };
  }
}

const needsAction = (status: string | null) =>
  status === 'requires_action' || status === 'requires_confirmation';
const secret = (clientSecret: string | null) => (clientSecret ? { clientSecret } : {});

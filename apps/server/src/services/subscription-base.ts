import type { BillingFrequency, PaymentProviderName, PlanCode } from '@ferry/core';
import type { Logger } from 'pino';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import type {
  CustomerRecord,
  PgSubscriptionRepository,
  SubscriptionRecord,
} from '../db/subscription.repository.js';
import type { Catalogue } from '../payments/catalogue.js';
import type { PaymentProvider } from '../payments/provider.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { BillingAccounts } from './billing-account.js';
import type { Buyer, Invoices, IssuedInvoice, TaxDecision, Taxes } from './billing-ports.js';
import type { PlanService } from './plan.service.js';
import type { SubscriptionDunning } from './subscription-dunning.js';
import { subscriptionLine } from './subscription-view.js';

export interface SubscriptionSettings {
  /** PAYMENT_PROVIDERS: what a buyer may pick. */
  providers: readonly PaymentProviderName[];
  trialDays: number;
  productName: string;
}

export const notFound = () => new AppError('NOT_FOUND', 'No such subscription.');

/** What the parts of the subscription service share: their peers, and the helpers they all use. */
export abstract class SubscriptionBase {
  constructor(
    protected readonly repo: PgSubscriptionRepository,
    protected readonly accounts: Pick<PgAccountRepository, 'user'>,
    protected readonly payers: BillingAccounts,
    protected readonly plans: PlanService,
    protected readonly taxes: Taxes,
    protected readonly invoices: Invoices,
    protected readonly catalogue: Catalogue,
    /** MANUAL, and the card providers the integrator wires from payments/stripe.ts and paypal.ts. */
    protected readonly providers: ReadonlyMap<PaymentProviderName, PaymentProvider>,
    protected readonly dunning: SubscriptionDunning,
    protected readonly settings: SubscriptionSettings,
    protected readonly logger: Logger,
    protected readonly now: () => Date = () => new Date(),
  ) {}

  // --- helpers ------------------------------------------------------------------------------------------

  /** Voids the open invoice the subscription waits on, if any (its first payment or a renewal). */
  protected async voidOpenInvoice(sub: SubscriptionRecord): Promise<void> {
    await this.voidInvoice(sub.openInvoice);
  }

  /** Voids the prorated invoice of an upgrade not paid yet (replaced, or the subscription ends). */
  protected async voidUpgradeInvoice(sub: SubscriptionRecord): Promise<void> {
    await this.voidInvoice(sub.pendingChange?.kind === 'upgrade' ? sub.pendingChange.invoiceNumber : null);
  }

  private async voidInvoice(number: string | null | undefined): Promise<void> {
    if (!number) return;
    await this.invoices.void(number, null).catch((err) => {
      this.logger.warn({ err, invoice: number }, 'could not void the invoice');
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

  protected formatCredit(credit: number, sub: SubscriptionRecord): string {
    return `less ${(credit / 100).toFixed(2)} ${sub.currency} unused of ${sub.planCode}`;
  }

  protected buyer(payer: UserRecord, customer: CustomerRecord | null): Buyer {
    return {
      userId: payer.id,
      email: payer.email,
      name: payer.firstname,
      companyName: customer?.companyName ?? null,
      address: customer?.address ?? null,
      locale: payer.locale,
    };
  }

  protected priceOf(
    planCode: PlanCode,
    frequency: BillingFrequency,
    currency: SubscriptionRecord['currency'],
  ) {
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
  protected provider(name: PaymentProviderName, offered = true): PaymentProvider {
    const provider = this.providers.get(name);
    if (!provider || (offered && !this.settings.providers.includes(name)))
      throw new AppError('PAYMENT_PROVIDER_NOT_AVAILABLE', `${name} is not offered here.`, {
        details: { provider: name, providers: this.settings.providers },
      });
    return provider;
  }

  protected async customerRef(payer: UserRecord, customer: CustomerRecord, provider: PaymentProvider) {
    const existing = customer.providerRefs[provider.name] ?? null;
    const ref = await provider.ensureCustomer(
      { userId: payer.id, email: payer.email, name: payer.firstname, countryCode: customer.countryCode },
      existing,
    );
    if (ref !== existing)
      await this.repo.saveCustomer({ ...customer, providerRefs: { [provider.name]: ref } });
    return ref;
  }

  protected async changeAtProvider(
    sub: SubscriptionRecord,
    change: { planCode: PlanCode; frequency: BillingFrequency; amount: number; prorate: boolean },
  ) {
    const provider = this.providers.get(sub.provider);
    if (!provider || provider.collects === 'invoice' || !sub.providerRef) return null;
    return provider.changeSubscription(sub.providerRef, change);
  }

  /** The caller's paying account and its live subscription `id`; 404 for anyone else's. */
  protected async own(auth: Authenticated | null, id: string) {
    const payer = await this.payers.payerOf(auth);
    const sub = await this.repo.byId(id);
    if (!sub || sub.userId !== payer.id || sub.status === 'canceled') throw notFound();
    return { payer, sub };
  }
}

import { createHmac } from 'node:crypto';
import {
  type Currency,
  type PaymentIntentStatus,
  type PaymentProviderName,
  type PurchaseState,
  StartPurchaseRequest,
  type StartPurchaseResponse,
  type TransferSale,
} from '@ferry/core';
import type { NewPurchase, PgPurchaseRepository, PurchaseRecord } from '../db/purchase.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import { purchaseReceipt } from '../mail/templates/index.js';
import type { PaymentProvider, ProviderEvent } from '../payments/provider.js';
import { constantTimeEqual } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { Invoices, IssueInvoice, Taxes } from './billing-ports.js';
import type { PurchaseGate } from './download.service.js';
import type { MailQueue } from './notification.service.js';
import type { RateLimiter, TransferRecord, TransferRepository } from './ports.js';

/** Payments a client address may start per hour: a card-testing bot gets little out of Ferry. */
const PURCHASES_PER_IP_PER_HOUR = 20;

const PURCHASE_ID = /^[A-Za-z0-9]{24}$/;

export interface PurchaseSettings {
  productName: string;
  /** Origin of the links Ferry mails (PUBLIC_URL, else http://localhost:PORT). */
  publicOrigin: () => string;
  /** Key of the purchase tokens (derived from the server key). */
  tokenKey: string;
}

/** VAT on an amount in minor units, rounded half up (per invoice, as invoices do). */
export function taxOn(amount: number, ratePercent: number): number {
  return Math.floor((amount * ratePercent) / 100 + 0.5);
}

/**
 * Selling files (spec §3 price and currency). A buyer starts a payment on the transfer's page; the card provider
 * takes it; once paid (its webhook, or the buyer's page asking), the purchase's token unlocks that transfer's
 * downloads until it expires, a receipt (a paid invoice with VAT) is issued and the personal link is mailed. Money
 * goes to the instance's own provider account; creating a priced transfer calls no provider.
 */
export class PurchaseService implements PurchaseGate {
  constructor(
    private readonly repo: PgPurchaseRepository,
    private readonly transfers: Pick<TransferRepository, 'find'>,
    private readonly taxes: Taxes,
    private readonly invoices: Invoices,
    /** The card providers of PAYMENT_PROVIDERS, in their order (MANUAL cannot sell files). */
    private readonly providers: ReadonlyMap<PaymentProviderName, PaymentProvider>,
    private readonly mail: MailQueue,
    private readonly limiter: RateLimiter,
    private readonly settings: PurchaseSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Whether files can be sold here at all. */
  get enabled(): boolean {
    return this.providers.size > 0;
  }

  payUrl(transferId: string): string {
    return `${this.settings.publicOrigin()}/dl/${transferId}#buy`;
  }

  /** The token that unlocks what a purchase bought: its id and a MAC of it and the transfer. */
  tokenOf(purchase: Pick<PurchaseRecord, 'id' | 'transferId'>): string {
    return `${purchase.id}.${this.mac(purchase.id, purchase.transferId)}`;
  }

  async unlocks(transferId: string, token: string): Promise<boolean> {
    const [id, mac] = token.split('.');
    if (!id || !mac || !PURCHASE_ID.test(id)) return false;
    if (!constantTimeEqual(mac, this.mac(id, transferId))) return false;
    return this.repo.isPaidFor(id, transferId);
  }

  async start(
    input: StartPurchaseRequest,
    ctx: { ip: string; locale: string | null },
  ): Promise<StartPurchaseResponse> {
    const request = StartPurchaseRequest.parse(input);
    const hit = await this.limiter.hit(`purchase-ip:${ctx.ip}`, PURCHASES_PER_IP_PER_HOUR, 3600);
    if (!hit.allowed)
      throw new AppError('RATE_LIMITED', 'Too many payments started from your address; try again later.', {
        retryAfterSeconds: hit.retryAfterSeconds,
      });
    const transfer = await this.forSale(request.transferId);
    const provider = this.pick(request.provider);
    const tax = await this.taxes.decide(request.countryCode, request.vatNumber ?? null, { strict: true });
    const amount = transfer.priceAmount as number;
    const currency = transfer.priceCurrency as Currency;
    const taxAmount = taxOn(amount, tax.rate);
    const purchase: NewPurchase = {
      id: randomAlphanumeric(24),
      transferId: transfer.id,
      sellerId: transfer.ownerId,
      email: request.email.toLowerCase(),
      countryCode: tax.countryCode,
      vatNumber: tax.vatNumber,
      locale: ctx.locale,
      currency,
      amount,
      taxRate: tax.rate,
      tax: taxAmount,
      total: amount + taxAmount,
      reverseCharge: tax.reverseCharge,
      provider: provider.name,
    };
    await this.repo.insert(purchase);
    const payment = await provider.startPayment({
      purchaseId: purchase.id,
      email: purchase.email,
      total: purchase.total,
      currency,
      description: `${transfer.name?.trim() || `${transfer.fileCount} files`} (${this.settings.productName})`,
      returnPath: `/dl/${transfer.id}`,
    });
    await this.repo.attachProvider(purchase.id, payment.ref, payment.status);
    if (payment.status === 'succeeded') await this.complete(purchase.id);
    return {
      purchaseId: purchase.id,
      amount,
      tax: taxAmount,
      total: purchase.total,
      currency,
      ...(payment.clientSecret ? { clientSecret: payment.clientSecret } : {}),
      ...(payment.approveUrl ? { approveUrl: payment.approveUrl } : {}),
    };
  }

  /**
   * Where a purchase stands. A pending one asks its provider, so the buyer's page learns of the payment even
   * before the provider's webhook arrives; the purchase id is the buyer's secret (24 random characters).
   */
  async state(purchaseId: string): Promise<PurchaseState> {
    let purchase = PURCHASE_ID.test(purchaseId) ? await this.repo.find(purchaseId) : null;
    if (!purchase) throw new AppError('NOT_FOUND', 'No such purchase.');
    if (purchase.status !== 'paid' && purchase.providerRef) {
      const provider = this.providers.get(purchase.provider as PaymentProviderName);
      if (provider) {
        const status = await provider.paymentStatus(purchase.providerRef);
        if (status === 'succeeded') await this.complete(purchase.id);
        else if (status !== purchase.intentStatus)
          await this.repo.setIntentStatus(purchase.id, status, status === 'requires_payment_method');
        purchase = (await this.repo.find(purchase.id)) as PurchaseRecord;
      }
    }
    return {
      purchaseId: purchase.id,
      status: purchase.status,
      intentStatus: (purchase.intentStatus as PaymentIntentStatus | null) ?? null,
      purchaseToken: purchase.status === 'paid' ? this.tokenOf(purchase) : null,
      receiptNumber: purchase.receiptNumber,
    };
  }

  /** A verified provider event about a one-time payment (the webhook routes hand these over). */
  async handleProviderEvent(provider: PaymentProviderName, event: ProviderEvent): Promise<boolean> {
    if (event.kind !== 'payment.succeeded' && event.kind !== 'payment.failed') return false;
    const purchase = await this.repo.byProviderRef(provider, event.paymentRef);
    if (!purchase) return false;
    if (event.kind === 'payment.succeeded') await this.complete(purchase.id);
    else await this.repo.setIntentStatus(purchase.id, event.intentStatus, true);
    return true;
  }

  /** A transfer's paid sales (its owner's dashboard). */
  async sales(transferId: string): Promise<TransferSale[]> {
    return (await this.repo.sales(transferId)).map((p) => ({
      email: p.email,
      countryCode: p.countryCode,
      currency: p.currency as Currency,
      amount: p.amount,
      tax: p.tax,
      total: p.total,
      receiptNumber: p.receiptNumber,
      paidAt: (p.paidAt as Date).toISOString(),
    }));
  }

  /**
   * Pending → paid, once: the one caller that makes the change issues the receipt and mails the link. A receipt
   * or mail that fails is retried by the next event or poll (the mail job de-duplicates by key).
   */
  private async complete(purchaseId: string): Promise<void> {
    await this.repo.markPaid(purchaseId, this.now());
    const purchase = await this.repo.find(purchaseId);
    if (purchase?.status !== 'paid') return;
    const transfer = await this.transfers.find(purchase.transferId);
    if (!purchase.receiptNumber) {
      // A webhook and the buyer's page may complete the same purchase at once: one receipt, under the lock.
      purchase.receiptNumber = await this.repo.withLock(purchase.id, async () => {
        const number =
          (await this.repo.issuedReceipt(purchase.id)) ??
          (await this.invoices.issue(this.receiptOf(purchase, transfer))).number;
        await this.repo.setReceipt(purchase.id, number);
        return number;
      });
    }
    // The mail job sends one mail per key, whoever gets here.
    if (transfer) await this.mailReceipt(purchase, transfer);
  }

  private receiptOf(purchase: PurchaseRecord, transfer: TransferRecord | null): IssueInvoice {
    return {
      buyer: {
        userId: null,
        email: purchase.email,
        name: null,
        companyName: null,
        address: null,
        locale: purchase.locale,
      },
      currency: purchase.currency as Currency,
      lines: [
        {
          description: transfer?.name?.trim() || `${transfer?.fileCount ?? 0} files`,
          quantity: 1,
          unitAmount: purchase.amount,
        },
      ],
      tax: {
        countryCode: purchase.countryCode,
        rate: purchase.taxRate,
        reverseCharge: purchase.reverseCharge,
        vatNumber: purchase.vatNumber,
        vatNumberValid: purchase.vatNumber ? true : null,
        vatCheck: purchase.vatNumber ? 'format' : 'none',
      },
      provider: purchase.provider as PaymentProviderName,
      purchaseId: purchase.id,
      status: 'paid',
      paymentRef: purchase.providerRef,
    };
  }

  private async mailReceipt(purchase: PurchaseRecord, transfer: TransferRecord): Promise<void> {
    const locale = purchase.locale ?? 'en';
    const money = (minor: number) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency: purchase.currency }).format(minor / 100);
    const url = `${this.settings.publicOrigin()}/dl/${transfer.id}?purchase=${encodeURIComponent(this.tokenOf(purchase))}`;
    const rendered = await purchaseReceipt(
      { locale: purchase.locale, productName: this.settings.productName },
      {
        name: transfer.name,
        fileCount: transfer.fileCount,
        amount: money(purchase.amount),
        tax: money(purchase.tax),
        total: money(purchase.total),
        taxRate: purchase.taxRate,
        reverseCharge: purchase.reverseCharge,
        receiptNumber: purchase.receiptNumber,
        paidAt: purchase.paidAt ?? this.now(),
        url,
        expiresAt: transfer.expiresAt,
      },
    );
    await this.mail.enqueue({
      to: [purchase.email],
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      idempotencyKey: `purchase-${purchase.id}`,
    });
  }

  private async forSale(transferId: string): Promise<TransferRecord> {
    const transfer = await this.transfers.find(transferId);
    const now = this.now();
    if (transfer?.type !== 'S2' || ['UPLOADING', 'DELETED', 'RETAINED'].includes(transfer.status))
      throw new AppError('TRANSFER_NOT_FOUND', 'This transfer does not exist or is not ready yet.');
    if (transfer.status === 'DISABLED')
      throw new AppError('TRANSFER_DISABLED', 'This transfer is no longer available.');
    if (transfer.expiresAt <= now || transfer.expiredAt)
      throw new AppError('TRANSFER_EXPIRED', 'This transfer has expired.');
    if (transfer.priceAmount === null || transfer.priceCurrency === null)
      throw new AppError('VALIDATION_FAILED', 'This transfer is free: nothing to buy.', {
        details: { field: 'transferId' },
      });
    return transfer;
  }

  private pick(name: PaymentProviderName | undefined): PaymentProvider {
    const provider = name ? this.providers.get(name) : this.providers.values().next().value;
    if (!provider)
      throw new AppError('PAYMENT_PROVIDER_NOT_AVAILABLE', 'This payment method is not available here.', {
        details: { field: 'provider' },
      });
    return provider;
  }

  private mac(purchaseId: string, transferId: string): string {
    return createHmac('sha256', this.settings.tokenKey)
      .update(`purchase:${purchaseId}:${transferId}`)
      .digest('base64url')
      .slice(0, 32);
  }
}

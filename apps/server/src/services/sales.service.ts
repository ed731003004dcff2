import {
  ContactMessageRequest,
  type ContactMessageResponse,
  EnterpriseContactRequest,
  type EnterpriseContactResponse,
} from '@ferry/core';
import type { Logger } from 'pino';
import type { PgSalesRepository } from '../db/sales.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import {
  contactMessageAcknowledgement,
  contactMessageForSupport,
  enterpriseContactAcknowledgement,
  enterpriseContactForSales,
} from '../mail/templates/index.js';
import { AppError } from './app-error.js';
import type { MailQueue } from './notification.service.js';
import type { RateLimiter } from './ports.js';

/**
 * Anyone may write, so each form is limited per client and per address given: it mails that address, and must
 * not become a way to flood someone's inbox. The two forms count apart (their own key prefixes).
 */
const LIMITS = {
  perClient: { limit: 5, windowSeconds: 3600 },
  perAddress: { limit: 3, windowSeconds: 86_400 },
} as const;

/**
 * The contact forms of the public pages: the enterprise form (/register/enterprise), mailed to the sales team, and
 * the general form (/contact), mailed to the operator's contact address. Each is kept, mailed, acknowledged.
 */
export class SalesService {
  constructor(
    private readonly repo: PgSalesRepository,
    private readonly limiter: RateLimiter,
    private readonly mail: MailQueue,
    /** SALES_EMAIL. */
    private readonly salesEmail: string,
    /** SUPPORT_EMAIL (SALES_EMAIL when unset). */
    private readonly supportEmail: string,
    private readonly productName: string,
    private readonly logger: Logger,
  ) {}

  async enterpriseContact(input: EnterpriseContactRequest, ip: string): Promise<EnterpriseContactResponse> {
    const request = EnterpriseContactRequest.parse(input);
    await this.limit(`sales-ip:${ip}`, LIMITS.perClient);
    await this.limit(`sales-address:${request.email.toLowerCase()}`, LIMITS.perAddress);
    const contact = {
      id: randomAlphanumeric(16),
      name: request.name,
      email: request.email,
      company: request.company,
      phone: request.phone || null,
      teamSize: request.teamSize ?? null,
      message: request.message || null,
      locale: request.locale ?? null,
      ip,
    };
    // Stored first: the request is not lost if mail is down; the mail job retries on its own.
    await this.repo.createEnterpriseContact(contact);
    const toSales = await enterpriseContactForSales({ productName: this.productName }, contact);
    await this.mail.enqueue({
      to: [this.salesEmail],
      replyTo: contact.email,
      ...toSales,
      idempotencyKey: `sales-contact-${contact.id}`,
    });
    const ack = await enterpriseContactAcknowledgement({
      locale: contact.locale,
      productName: this.productName,
    });
    await this.mail.enqueue({ to: [contact.email], ...ack, idempotencyKey: `sales-ack-${contact.id}` });
    this.logger.info({ contactId: contact.id }, 'enterprise contact received');
    return { id: contact.id };
  }

  async contactMessage(input: ContactMessageRequest, ip: string): Promise<ContactMessageResponse> {
    const request = ContactMessageRequest.parse(input);
    await this.limit(`contact-ip:${ip}`, LIMITS.perClient);
    await this.limit(`contact-address:${request.email.toLowerCase()}`, LIMITS.perAddress);
    const message = {
      id: randomAlphanumeric(16),
      name: request.name,
      email: request.email,
      subject: request.subject,
      message: request.message,
      locale: request.locale ?? null,
      ip,
    };
    // Stored first: the message is not lost if mail is down; the mail job retries on its own.
    await this.repo.createContactMessage(message);
    const toSupport = await contactMessageForSupport({ productName: this.productName }, message);
    await this.mail.enqueue({
      to: [this.supportEmail],
      replyTo: message.email,
      ...toSupport,
      idempotencyKey: `contact-message-${message.id}`,
    });
    const ack = await contactMessageAcknowledgement({
      locale: message.locale,
      productName: this.productName,
    });
    await this.mail.enqueue({ to: [message.email], ...ack, idempotencyKey: `contact-ack-${message.id}` });
    this.logger.info({ contactMessageId: message.id }, 'contact message received');
    return { id: message.id };
  }

  private async limit(key: string, rule: { limit: number; windowSeconds: number }): Promise<void> {
    const hit = await this.limiter.hit(key, rule.limit, rule.windowSeconds);
    if (!hit.allowed)
      throw new AppError('RATE_LIMITED', 'Too many requests; wait before trying again.', {
        retryAfterSeconds: hit.retryAfterSeconds,
      });
  }
}

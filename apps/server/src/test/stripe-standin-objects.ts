import { randomBytes } from 'node:crypto';
import { invalidRequest, type Json, missing } from './stripe-standin-http.js';

/*
 * The Stripe stand-in's objects (customers, products, prices, invoices, payment intents), by id, in memory: how
 * they are made, and how the API shows them (internal `_x` fields dropped, ids expanded on request, an invoice's
 * includable `payments` and `confirmation_secret`). Its clock can be moved on by the tests.
 */

export function addInterval(start: number, recurring: { interval: string; interval_count: number }): number {
  const d = new Date(start * 1000);
  if (recurring.interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + recurring.interval_count);
  else if (recurring.interval === 'month') d.setUTCMonth(d.getUTCMonth() + recurring.interval_count);
  else if (recurring.interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * recurring.interval_count);
  else d.setUTCDate(d.getUTCDate() + recurring.interval_count);
  return Math.floor(d.getTime() / 1000);
}

export abstract class StripeObjects {
  /** Every object by id (cus_, prod_, price_, sub_, si_, in_, il_, pi_, seti_, pm_). */
  readonly objects = new Map<string, Json>();
  url = '';
  protected clockOffset = 0;

  /** Stripe tells what changed through events (webhooks). */
  protected abstract emit(type: string, object: Json): void;

  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffset;
  }

  get<T = Json>(id: string): T {
    const object = this.objects.get(id);
    if (!object) throw missing(id);
    return object as T;
  }

  protected id(prefix: string): string {
    return `${prefix}_${randomBytes(10).toString('hex')}`;
  }

  protected put(object: Json): Json {
    this.objects.set(object.id, object);
    return object;
  }

  /** An object as the API shows it: internal fields (`_x`) dropped, includable fields only when expanded. */
  protected view(object: Json, include: string[] = []): Json {
    const out: Json = {};
    for (const [key, value] of Object.entries(object))
      if (!key.startsWith('_')) out[key] = structuredClone(value);
    if (object.object === 'invoice') {
      const intent = object._paymentIntent ? this.objects.get(object._paymentIntent) : null;
      if (include.includes('payments'))
        out.payments = {
          object: 'list',
          data: intent
            ? [
                {
                  object: 'invoice_payment',
                  status: intent.status === 'succeeded' ? 'paid' : 'open',
                  payment: { type: 'payment_intent', payment_intent: intent.id },
                },
              ]
            : [],
        };
      if (include.includes('confirmation_secret'))
        out.confirmation_secret = intent
          ? { type: 'payment_intent', client_secret: intent.client_secret }
          : null;
    }
    return out;
  }

  protected render(object: Json, expand: string[]): Json {
    const top = expand.filter((e) => !e.includes('.'));
    const out = this.view(object, top);
    for (const path of expand) this.expandPath(out, path.split('.'));
    return out;
  }

  protected expandPath(node: Json, parts: string[]): void {
    if (!node || typeof node !== 'object' || parts.length === 0) return;
    const [head, ...rest] = parts as [string, ...string[]];
    if (head === 'data' && Array.isArray(node.data)) {
      for (const entry of node.data) this.expandPath(entry, rest);
      return;
    }
    let value = node[head];
    if (typeof value === 'string' && this.objects.has(value)) {
      value = this.view(this.objects.get(value));
      node[head] = value;
    }
    const [next] = rest;
    if (next && value?.object === 'invoice' && value[next] === undefined && this.objects.has(value.id))
      value[next] = this.view(this.objects.get(value.id), [next])[next];
    if (rest.length) this.expandPath(value, rest);
  }

  protected publicView(intent: Json): Json {
    const out = this.view(intent);
    delete out.customer;
    delete out.metadata;
    return out;
  }

  protected withSecret(id: string, clientSecret: unknown): Json {
    const intent = this.objects.get(id);
    if (!intent || intent.client_secret !== clientSecret)
      throw invalidRequest(
        'The client_secret provided does not match any associated PaymentIntent',
        'resource_missing',
      );
    return intent;
  }

  protected createCustomer(p: Json): Json {
    return this.put({
      id: this.id('cus'),
      object: 'customer',
      created: this.now(),
      email: p.email ?? null,
      name: p.name ?? null,
      address: p.address ?? null,
      metadata: p.metadata || {},
      invoice_settings: { default_payment_method: null },
      livemode: false,
    });
  }

  protected createProduct(p: Json): Json {
    const id = p.id ?? this.id('prod');
    if (this.objects.has(id)) throw invalidRequest(`Product already exists.`, 'resource_already_exists');
    return this.put({
      id,
      object: 'product',
      name: p.name,
      active: true,
      created: this.now(),
      metadata: p.metadata || {},
    });
  }

  protected createPrice(data: Json): Json {
    if (!data?.product || !this.objects.has(data.product)) throw missing(String(data?.product));
    return this.put({
      id: this.id('price'),
      object: 'price',
      currency: data.currency,
      unit_amount: Number(data.unit_amount),
      product: data.product,
      type: 'recurring',
      recurring: {
        interval: data.recurring.interval,
        interval_count: Number(data.recurring.interval_count ?? 1),
      },
    });
  }

  protected listSubscriptions(p: Json): Json {
    const all = [...this.objects.values()]
      .filter((o) => o.object === 'subscription' && (!p.customer || o.customer === p.customer))
      .filter((o) => !p.status || p.status === 'all' || o.status === p.status)
      .reverse()
      .slice(0, Number(p.limit ?? 10));
    return this.render(
      { object: 'list', data: all.map((s) => this.view(s)), has_more: false },
      p.expand ?? [],
    );
  }

  protected createInvoice(
    sub: Json,
    reason: string,
    lines: { amount: number; description: string | null; start: number; end: number }[],
  ): Json {
    const price = sub.items.data[0].price;
    const total = Math.max(
      0,
      lines.reduce((sum, l) => sum + l.amount, 0),
    );
    const invoice = this.put({
      id: this.id('in'),
      object: 'invoice',
      created: this.now(),
      customer: sub.customer,
      currency: price.currency,
      status: 'open',
      billing_reason: reason,
      amount_due: total,
      amount_paid: 0,
      amount_remaining: total,
      period_start: Math.min(...lines.map((l) => l.start)),
      period_end: Math.max(...lines.map((l) => l.end)),
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } },
      },
      lines: {
        object: 'list',
        has_more: false,
        data: lines.map((l) => ({
          id: this.id('il'),
          object: 'line_item',
          amount: l.amount,
          currency: price.currency,
          description: l.description,
          period: { start: l.start, end: l.end },
        })),
      },
      _paymentIntent: null,
    });
    sub.latest_invoice = invoice.id;
    if (total > 0) {
      const customer = this.get(sub.customer);
      invoice._paymentIntent = this.createPaymentIntent({
        amount: String(total),
        currency: price.currency,
        customer: sub.customer,
        description: `Invoice ${invoice.id}`,
        payment_method:
          sub.default_payment_method ?? customer.invoice_settings.default_payment_method ?? undefined,
      }).id;
      this.get(invoice._paymentIntent)._invoice = invoice.id;
    }
    return invoice;
  }

  protected createPaymentIntent(p: Json): Json {
    const id = this.id('pi');
    return this.put({
      id,
      object: 'payment_intent',
      created: this.now(),
      amount: Number(p.amount),
      currency: String(p.currency).toLowerCase(),
      customer: p.customer ?? null,
      description: p.description ?? null,
      receipt_email: p.receipt_email ?? null,
      metadata: p.metadata || {},
      confirmation_method: p.confirmation_method ?? 'automatic',
      payment_method: p.payment_method ?? null,
      status: p.payment_method ? 'requires_confirmation' : 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      last_payment_error: null,
      next_action: null,
      _invoice: null,
      _authenticated: false,
    });
  }
}

import { randomBytes } from 'node:crypto';

/*
 * The PayPal stand-in's state: catalog products, billing plans (a subscription's own price and VAT as a plan
 * override), subscriptions with their billing, checkout orders and their captures, and the buyer's side (approving
 * on PayPal) with the renewals, as test controls. What changes is told through `emit` (webhooks).
 */

// biome-ignore lint/suspicious/noExplicitAny: the stand-in's objects are PayPal's JSON, loosely typed on purpose.
export type Json = any;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}

const unprocessable = (issue: string) =>
  new HttpError(422, {
    name: 'UNPROCESSABLE_ENTITY',
    message: 'The requested action could not be performed.',
    details: [{ issue }],
  });
export const notFound = (id: string) =>
  new HttpError(404, {
    name: 'RESOURCE_NOT_FOUND',
    message: `The specified resource ${id} does not exist.`,
    details: [{ issue: 'INVALID_RESOURCE_ID' }],
  });

function addCycle(from: Date, frequency: { interval_unit: string; interval_count: number }): Date {
  const d = new Date(from);
  const n = frequency.interval_count;
  if (frequency.interval_unit === 'YEAR') d.setUTCFullYear(d.getUTCFullYear() + n);
  else if (frequency.interval_unit === 'MONTH') d.setUTCMonth(d.getUTCMonth() + n);
  else if (frequency.interval_unit === 'WEEK') d.setUTCDate(d.getUTCDate() + 7 * n);
  else d.setUTCDate(d.getUTCDate() + n);
  return d;
}

const money = (minor: number, currency: string) => ({
  value: (minor / 100).toFixed(2),
  currency_code: currency,
});

export abstract class PayPalObjects {
  readonly products = new Map<string, Json>();
  readonly plans = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  readonly orders = new Map<string, Json>();
  url = '';
  protected failNext = false;

  /** PayPal tells what changed through webhook events. */
  protected abstract emit(type: string, resourceType: string, resource: Json): void;

  // ---- the buyer and the clock ---------------------------------------------------------------------------------

  /** The buyer approves the subscription on PayPal: it starts, and the first cycle is charged unless a trial. */
  approveSubscription(id: string): Json {
    const sub = this.subscription(id);
    if (sub.status !== 'APPROVAL_PENDING') throw new Error(`subscription ${id} is ${sub.status}`);
    const plan = this.plans.get(sub.plan_id);
    const now = new Date();
    sub.status = 'ACTIVE';
    sub.start_time = now.toISOString();
    const trial = plan.billing_cycles.find((c: Json) => c.tenure_type === 'TRIAL');
    if (trial) {
      sub.billing_info.next_billing_time = addCycle(now, trial.frequency).toISOString();
      this.emit('BILLING.SUBSCRIPTION.ACTIVATED', 'subscription', this.view(sub));
    } else {
      sub.billing_info.next_billing_time = now.toISOString();
      this.emit('BILLING.SUBSCRIPTION.ACTIVATED', 'subscription', this.view(sub));
      this.renewNow(id);
    }
    return sub;
  }

  /** The next cycle is charged now (or fails, after failNextRenewal()). */
  renewNow(id: string): Json {
    const sub = this.subscription(id);
    const cycle = this.regularCycle(sub);
    const amount = this.cycleAmount(sub);
    const due = new Date(sub.billing_info.next_billing_time);
    const currency = cycle.pricing_scheme.fixed_price.currency_code;
    if (this.failNext) {
      this.failNext = false;
      sub.billing_info.failed_payments_count += 1;
      sub.billing_info.outstanding_balance = money(amount, currency);
      this.emit('BILLING.SUBSCRIPTION.PAYMENT.FAILED', 'subscription', this.view(sub));
      return sub;
    }
    sub.billing_info.next_billing_time = addCycle(due, cycle.frequency).toISOString();
    this.sale(sub, amount, currency);
    return sub;
  }

  failNextRenewal(): void {
    this.failNext = true;
  }

  /** The buyer approves a checkout order on PayPal. */
  approveOrder(id: string): Json {
    const order = this.order(id);
    order.status = 'APPROVED';
    this.emit('CHECKOUT.ORDER.APPROVED', 'checkout-order', structuredClone(order));
    return order;
  }

  // ---- objects --------------------------------------------------------------------------------------------------

  protected subscription(id: string): Json {
    const sub = this.subscriptions.get(id);
    if (!sub) throw notFound(id);
    return sub;
  }

  protected order(id: string): Json {
    const order = this.orders.get(id);
    if (!order) throw notFound(id);
    return order;
  }

  protected view(sub: Json, withPlan = false): Json {
    const out = structuredClone(sub);
    delete out._override;
    if (withPlan) out.plan = structuredClone(sub._override);
    return out;
  }

  protected createProduct(body: Json): Json {
    const id = body.id ?? `PROD-${randomBytes(6).toString('hex').toUpperCase()}`;
    if (this.products.has(id)) throw unprocessable('DUPLICATE_RESOURCE_IDENTIFIER');
    const product = {
      id,
      name: body.name,
      type: body.type,
      category: body.category,
      create_time: new Date().toISOString(),
    };
    this.products.set(id, product);
    return product;
  }

  protected createPlan(body: Json): Json {
    if (!this.products.has(body.product_id)) throw unprocessable('INVALID_PRODUCT_ID');
    const plan = {
      id: `P-${randomBytes(8).toString('hex').toUpperCase()}`,
      product_id: body.product_id,
      name: body.name,
      status: body.status ?? 'ACTIVE',
      billing_cycles: body.billing_cycles,
      payment_preferences: body.payment_preferences,
      taxes: body.taxes,
      create_time: new Date().toISOString(),
    };
    this.plans.set(plan.id, plan);
    return plan;
  }

  protected createSubscription(body: Json): Json {
    const plan = this.plans.get(body.plan_id);
    if (!plan) throw unprocessable('INVALID_PLAN_ID');
    const id = `I-${randomBytes(6).toString('hex').toUpperCase()}`;
    const sub = {
      id,
      status: 'APPROVAL_PENDING',
      plan_id: plan.id,
      custom_id: body.custom_id,
      plan_overridden: !!body.plan,
      create_time: new Date().toISOString(),
      billing_info: { failed_payments_count: 0, outstanding_balance: money(0, this.currencyOf(plan)) },
      links: [
        {
          href: `${this.url}/webapps/billing/subscriptions?ba_token=BA-${id}`,
          rel: 'approve',
          method: 'GET',
        },
        { href: `${this.url}/v1/billing/subscriptions/${id}`, rel: 'self', method: 'GET' },
      ],
      _override: this.override(plan, body.plan),
    };
    this.subscriptions.set(id, sub);
    return this.view(sub);
  }

  /** The plan as this subscription has it: the plan's cycles with the override's prices, and its taxes. */
  protected override(plan: Json, override: Json): Json {
    const cycles = plan.billing_cycles.map((cycle: Json) => {
      const own = override?.billing_cycles?.find((c: Json) => c.sequence === cycle.sequence);
      return { ...cycle, ...(own?.pricing_scheme ? { pricing_scheme: own.pricing_scheme } : {}) };
    });
    return {
      billing_cycles: cycles,
      taxes: override?.taxes ?? plan.taxes ?? { percentage: '0', inclusive: false },
    };
  }

  protected currencyOf(plan: Json): string {
    return plan.billing_cycles.find((c: Json) => c.pricing_scheme)?.pricing_scheme.fixed_price.currency_code;
  }

  protected regularCycle(sub: Json): Json {
    return sub._override.billing_cycles.find((c: Json) => c.tenure_type === 'REGULAR');
  }

  /** A cycle's price with its exclusive VAT. */
  cycleAmount(sub: Json): number {
    const net = Math.round(Number(this.regularCycle(sub).pricing_scheme.fixed_price.value) * 100);
    return net + Math.round((net * Number(sub._override.taxes?.percentage ?? 0)) / 100);
  }

  protected revise(sub: Json, body: Json): Json {
    const plan = this.plans.get(body.plan_id);
    if (!plan) throw unprocessable('INVALID_PLAN_ID');
    const before = this.cycleAmount(sub);
    sub.plan_id = plan.id;
    sub._override = this.override(plan, body.plan);
    const higher = this.cycleAmount(sub) > before;
    this.emit('BILLING.SUBSCRIPTION.UPDATED', 'subscription', this.view(sub));
    return {
      plan_id: plan.id,
      plan_overridden: true,
      links: higher
        ? [
            {
              href: `${this.url}/webapps/billing/subscriptions/update?ba_token=BA-${sub.id}`,
              rel: 'approve',
              method: 'GET',
            },
          ]
        : [],
    };
  }

  protected changeState(sub: Json, action: string, reason: string | undefined): void {
    const allowed: Record<string, string[]> = {
      suspend: ['ACTIVE'],
      activate: ['SUSPENDED'],
      cancel: ['ACTIVE', 'SUSPENDED', 'APPROVAL_PENDING', 'APPROVED'],
    };
    if (!allowed[action]?.includes(sub.status)) throw unprocessable('SUBSCRIPTION_STATUS_INVALID');
    sub.status = action === 'suspend' ? 'SUSPENDED' : action === 'activate' ? 'ACTIVE' : 'CANCELLED';
    sub.status_change_note = reason;
    const type =
      action === 'suspend'
        ? 'BILLING.SUBSCRIPTION.SUSPENDED'
        : action === 'activate'
          ? 'BILLING.SUBSCRIPTION.RE-ACTIVATED'
          : 'BILLING.SUBSCRIPTION.CANCELLED';
    this.emit(type, 'subscription', this.view(sub));
  }

  protected captureBalance(sub: Json): Json {
    const balance = sub.billing_info.outstanding_balance;
    const amount = Math.round(Number(balance.value) * 100);
    if (amount === 0) throw unprocessable('ZERO_OUTSTANDING_BALANCE');
    if (this.failNext) {
      this.failNext = false;
      throw unprocessable('PAYMENT_DENIED');
    }
    sub.billing_info.outstanding_balance = money(0, balance.currency_code);
    sub.billing_info.failed_payments_count = 0;
    sub.billing_info.next_billing_time = addCycle(
      new Date(sub.billing_info.next_billing_time),
      this.regularCycle(sub).frequency,
    ).toISOString();
    const sale = this.sale(sub, amount, balance.currency_code);
    return { id: sale.id, status: 'COMPLETED', amount_with_breakdown: { gross_amount: balance } };
  }

  protected sale(sub: Json, amount: number, currency: string): Json {
    const now = new Date().toISOString();
    sub.billing_info.last_payment = { amount: money(amount, currency), time: now };
    const sale = {
      id: `SALE-${randomBytes(6).toString('hex').toUpperCase()}`,
      state: 'completed',
      amount: { total: (amount / 100).toFixed(2), currency },
      billing_agreement_id: sub.id,
      custom: sub.custom_id,
      create_time: now,
    };
    this.emit('PAYMENT.SALE.COMPLETED', 'sale', sale);
    return sale;
  }

  protected createOrder(body: Json): Json {
    const id = randomBytes(8).toString('hex').toUpperCase();
    const unit = body.purchase_units?.[0];
    const order = {
      id,
      intent: body.intent,
      status: 'PAYER_ACTION_REQUIRED',
      purchase_units: [{ custom_id: unit?.custom_id, description: unit?.description, amount: unit?.amount }],
      create_time: new Date().toISOString(),
      links: [
        { href: `${this.url}/checkoutnow?token=${id}`, rel: 'payer-action', method: 'GET' },
        { href: `${this.url}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
      ],
    };
    this.orders.set(id, order);
    return structuredClone(order);
  }

  protected captureOrder(order: Json): Json {
    if (order.status === 'COMPLETED') throw unprocessable('ORDER_ALREADY_CAPTURED');
    if (order.status !== 'APPROVED') throw unprocessable('ORDER_NOT_APPROVED');
    order.status = 'COMPLETED';
    const unit = order.purchase_units[0];
    const capture = {
      id: `CAP-${randomBytes(6).toString('hex').toUpperCase()}`,
      status: 'COMPLETED',
      amount: unit.amount,
      custom_id: unit.custom_id,
      supplementary_data: { related_ids: { order_id: order.id } },
    };
    unit.payments = { captures: [{ id: capture.id, status: 'COMPLETED', amount: unit.amount }] };
    this.emit('PAYMENT.CAPTURE.COMPLETED', 'capture', capture);
    return structuredClone(order);
  }
}

import { invalidRequest, type Json, luhnValid, StripeHttpError } from './stripe-standin-http.js';
import { StripeObjects } from './stripe-standin-objects.js';

/*
 * Paying in the Stripe stand-in: cards sent by the Stripe.js stand-in (checked as Stripe checks them), 3D Secure,
 * charges with the customer on the page or away (renewals), and what a payment does to its invoice and
 * subscription. Test cards behave as Stripe's do.
 */

export const TEST_CARDS = {
  succeeds: '4242424242424242',
  requiresAuthentication: '4000002500003155',
  chargeDeclined: '4000000000000341',
} as const;

type CardBehaviour = 'ok' | 'sca' | 'decline';
const behaviourOf = (number: string): CardBehaviour =>
  number === TEST_CARDS.requiresAuthentication
    ? 'sca'
    : number === TEST_CARDS.chargeDeclined
      ? 'decline'
      : 'ok';

const DECLINED = {
  type: 'card_error',
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: 'Your card was declined.',
};
const AUTH_FAILED = {
  type: 'card_error',
  code: 'payment_intent_authentication_failure',
  message:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
};

export abstract class StripePayments extends StripeObjects {
  protected failNext = false;

  /** The card the page sent (as Stripe.js sends payment_method_data), checked as Stripe checks it. */
  protected paymentMethodFrom(p: Json, customer: string | null): Json {
    if (typeof p.payment_method === 'string') return this.get(p.payment_method);
    const card = p.payment_method_data?.card ?? {};
    const number = String(card.number ?? '').replace(/\s+/g, '');
    if (!luhnValid(number))
      throw new StripeHttpError(402, {
        error: {
          type: 'card_error',
          code: 'incorrect_number',
          message: 'Your card number is incorrect.',
          param: 'number',
        },
      });
    const month = Number(card.exp_month);
    let year = Number(card.exp_year);
    if (year < 100) year += 2000;
    const now = new Date(this.now() * 1000);
    if (
      !(month >= 1 && month <= 12) ||
      year < now.getUTCFullYear() ||
      (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
    )
      throw new StripeHttpError(402, {
        error: {
          type: 'card_error',
          code: 'expired_card',
          message: 'Your card has expired.',
          param: 'exp_month',
        },
      });
    if (!/^\d{3,4}$/.test(String(card.cvc ?? '')))
      throw new StripeHttpError(402, {
        error: {
          type: 'card_error',
          code: 'incorrect_cvc',
          message: "Your card's security code is incorrect.",
          param: 'cvc',
        },
      });
    return this.put({
      id: this.id('pm'),
      object: 'payment_method',
      type: 'card',
      created: this.now(),
      customer,
      billing_details: p.payment_method_data?.billing_details ?? {},
      card: {
        brand: number.startsWith('4')
          ? 'visa'
          : number.startsWith('5')
            ? 'mastercard'
            : number.startsWith('3')
              ? 'amex'
              : 'unknown',
        last4: number.slice(-4),
        exp_month: month,
        exp_year: year,
        funding: 'credit',
        country: 'US',
      },
      _behaviour: behaviourOf(number),
    });
  }

  protected confirmFromPage(intent: Json, p: Json): Json {
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      throw invalidRequest(
        `This ${intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent'} has already ${intent.status}.`,
        `${intent.object}_unexpected_state`,
      );
    const method = this.paymentMethodFrom(p, intent.customer);
    intent.payment_method = method.id;
    if (intent.object === 'setup_intent') {
      if (method._behaviour === 'sca') return this.needsAction(intent);
      return this.setupSucceeded(intent);
    }
    if (method._behaviour === 'sca' && !intent._authenticated) return this.needsAction(intent);
    return this.charge(intent);
  }

  protected needsAction(intent: Json): Json {
    intent.status = 'requires_action';
    intent.next_action = {
      type: 'use_stripe_sdk',
      use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `${this.url}/standin/3ds/${intent.id}` },
    };
    if (intent._invoice) this.emit('invoice.payment_action_required', this.get(intent._invoice));
    return intent;
  }

  protected authenticate(intent: Json, passed: boolean): Json {
    if (intent.status !== 'requires_action')
      throw invalidRequest('Nothing to authenticate', `${intent.object}_unexpected_state`);
    intent.next_action = null;
    if (!passed) {
      intent.status = 'requires_payment_method';
      if (intent.object === 'setup_intent') intent.last_setup_error = AUTH_FAILED;
      else return this.failed(intent, AUTH_FAILED);
      return intent;
    }
    intent._authenticated = true;
    return intent.object === 'setup_intent' ? this.setupSucceeded(intent) : this.charge(intent);
  }

  protected setupSucceeded(setup: Json): Json {
    setup.status = 'succeeded';
    setup.next_action = null;
    setup.last_setup_error = null;
    this.emit('setup_intent.succeeded', setup);
    if (setup._subscription) {
      const sub = this.get(setup._subscription);
      sub.default_payment_method = setup.payment_method;
      sub.pending_setup_intent = null;
      this.emit('customer.subscription.updated', sub);
    }
    return setup;
  }

  /** Charges an intent's card; the customer is on the page (SCA was done or not needed) or away (offSession). */
  protected charge(intent: Json, offSession = false): Json {
    const method = intent.payment_method ? this.get(intent.payment_method) : null;
    if (!method) {
      intent.status = 'requires_payment_method';
      return intent;
    }
    const declined = method._behaviour === 'decline' || (offSession && this.failNext);
    if (offSession) this.failNext = false;
    if (declined) return this.failed(intent, { ...DECLINED, payment_method: this.view(method) });
    intent.status = 'succeeded';
    intent.last_payment_error = null;
    intent.next_action = null;
    this.emit('payment_intent.succeeded', intent);
    if (intent._invoice) this.markPaid(this.get(intent._invoice), method.id);
    return intent;
  }

  protected failed(intent: Json, error: Json): Json {
    intent.status = 'requires_payment_method';
    intent.last_payment_error = error;
    this.emit('payment_intent.payment_failed', intent);
    if (intent._invoice) {
      const invoice = this.get(intent._invoice);
      const sub = this.get(invoice.parent.subscription_details.subscription);
      if (sub.status === 'active' && invoice.billing_reason !== 'subscription_create') {
        sub.status = 'past_due';
        this.emit('customer.subscription.updated', sub);
      }
      this.emit('invoice.payment_failed', invoice);
    }
    return intent;
  }

  protected markPaid(invoice: Json, paymentMethod: string | null): void {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    const sub = this.get(invoice.parent.subscription_details.subscription);
    if (paymentMethod && sub.payment_settings?.save_default_payment_method === 'on_subscription')
      sub.default_payment_method = paymentMethod;
    this.emit('invoice.paid', invoice);
    if (sub.status === 'incomplete' || sub.status === 'past_due') {
      sub.status = 'active';
      this.emit('customer.subscription.updated', sub);
    }
  }

  /** A charge without the customer: renewals, prorations, invoices.pay. */
  protected payOffSession(invoice: Json, paymentMethod?: string): Json {
    const intent = this.get(invoice._paymentIntent);
    const sub = this.get(invoice.parent.subscription_details.subscription);
    const customer = this.get(invoice.customer);
    intent.payment_method =
      paymentMethod ??
      intent.payment_method ??
      sub.default_payment_method ??
      customer.invoice_settings.default_payment_method;
    if (!intent.payment_method)
      return this.failed(intent, {
        type: 'invalid_request_error',
        code: 'payment_method_required',
        message: 'No payment method',
      });
    return this.charge(intent, true);
  }

  protected payInvoice(invoice: Json, p: Json): Json {
    if (invoice.status !== 'open') throw invalidRequest('Invoice is already paid', 'invoice_not_open');
    const intent = this.payOffSession(invoice, p.payment_method);
    if (intent.status !== 'succeeded')
      throw new StripeHttpError(402, {
        error: { ...(intent.last_payment_error ?? DECLINED), payment_intent: this.view(intent) },
      });
    return invoice;
  }
}

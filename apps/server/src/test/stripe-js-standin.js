/*
 * A stand-in for Stripe.js v3, served by the Stripe stand-in (stripe-standin.ts) at <stand-in>/v3/. Real Stripe.js
 * cannot be loaded on the test machines. It implements exactly the subset Ferry's pages use:
 *   Stripe(publishableKey), stripe.elements(), elements.create('card', options), card.mount(elementOrSelector),
 *   card.on('change', cb) with cb({ complete, empty, brand, error?: { message } }), card.destroy(),
 *   stripe.confirmCardPayment(clientSecret, { payment_method: { card, billing_details? } })
 *   stripe.confirmCardSetup(clientSecret, { payment_method: { card } })
 * resolving to { paymentIntent | setupIntent: { id, status } } or { error: { message, code, type } }.
 * The card element is three plain inputs (card number, expiry MM / YY, CVC) a test types into. A card that needs
 * authentication (4000002500003155) shows an in-page dialog with "Complete authentication" and
 * "Fail authentication" before the promise resolves. It talks to the stand-in over HTTP (CORS).
 */
// A block, not a module: nothing leaks into the page but window.Stripe.
{
  const script = document.currentScript;
  const API = script?.src ? new URL(script.src).origin : window.location.origin;

  const digits = (value) => String(value || '').replace(/\D+/g, '');

  function luhn(number) {
    if (!/^\d{12,19}$/.test(number)) return false;
    let sum = 0;
    for (let i = 0; i < number.length; i++) {
      let d = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return sum % 10 === 0;
  }

  const brandOf = (number) =>
    number.startsWith('4')
      ? 'visa'
      : /^5[1-5]/.test(number)
        ? 'mastercard'
        : /^3[47]/.test(number)
          ? 'amex'
          : 'unknown';

  function encode(params, prefix, out) {
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      const name = prefix ? `${prefix}[${key}]` : key;
      if (typeof value === 'object') encode(value, name, out);
      else out.append(name, String(value));
    }
    return out;
  }

  async function call(method, path, params) {
    const body = encode(params, '', new URLSearchParams());
    const response = await fetch(
      method === 'GET' ? `${API}${path}?${body}` : `${API}${path}`,
      method === 'GET'
        ? { method }
        : { method, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: body.toString() },
    );
    const json = await response.json();
    return response.ok ? { ok: json } : { error: json.error || { message: 'Request failed' } };
  }

  let sequence = 0;

  class CardElement {
    constructor(options) {
      this.options = options || {};
      this.listeners = [];
      this.root = null;
      this.state = { complete: false, empty: true };
    }

    mount(target) {
      const host = typeof target === 'string' ? document.querySelector(target) : target;
      if (!host) throw new Error(`Stripe stand-in: no element ${target} to mount the card into`);
      const id = `stripe-standin-card-${++sequence}`;
      const root = document.createElement('div');
      root.className = 'StripeElement StripeElement--empty';
      root.setAttribute('data-stripe-standin', 'card');
      root.style.display = 'flex';
      root.style.flexWrap = 'wrap';
      root.style.gap = '0.5rem';
      const field = (name, label, placeholder, autocomplete, width) => {
        const input = document.createElement('input');
        input.id = `${id}-${name}`;
        input.name = `${name}`;
        input.type = 'text';
        input.inputMode = 'numeric';
        input.autocomplete = autocomplete;
        input.placeholder = placeholder;
        input.setAttribute('aria-label', label);
        input.style.flex = `1 1 ${width}`;
        input.style.minWidth = '0';
        input.style.font = 'inherit';
        input.addEventListener('input', () => this.changed());
        input.addEventListener('blur', () => this.changed());
        root.appendChild(input);
        return input;
      };
      this.number = field('cardnumber', 'Card number', '1234 1234 1234 1234', 'cc-number', '12rem');
      this.expiry = field('exp-date', 'Expiration date (MM / YY)', 'MM / YY', 'cc-exp', '5rem');
      this.cvc = field('cvc', 'Security code (CVC)', 'CVC', 'cc-csc', '4rem');
      host.appendChild(root);
      this.root = root;
    }

    /** What was typed, checked as Stripe's card element checks it. */
    read() {
      const number = digits(this.number?.value);
      const [mm, yy] = String(this.expiry?.value || '')
        .split('/')
        .map((part) => digits(part));
      const cvc = digits(this.cvc?.value);
      const month = Number(mm);
      const year = yy && yy.length <= 2 ? 2000 + Number(yy) : Number(yy);
      const now = new Date();
      let error;
      if (number.length < 15) error = number ? 'Your card number is incomplete.' : null;
      else if (!luhn(number)) error = 'Your card number is invalid.';
      if (!error && (!mm || !yy))
        error = this.expiry?.value ? "Your card's expiration date is incomplete." : null;
      else if (!error && (month < 1 || month > 12)) error = "Your card's expiration date is invalid.";
      else if (
        !error &&
        (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1))
      )
        error = "Your card's expiration year is in the past.";
      if (!error && cvc.length < 3)
        error = this.cvc?.value ? "Your card's security code is incomplete." : null;
      const complete = luhn(number) && !error && month >= 1 && month <= 12 && !!yy && cvc.length >= 3;
      return { number, month, year, cvc, complete, error, empty: !number && !this.expiry?.value && !cvc };
    }

    changed() {
      const card = this.read();
      this.state = { complete: card.complete, empty: card.empty };
      this.root?.classList.toggle('StripeElement--empty', card.empty);
      this.root?.classList.toggle('StripeElement--complete', card.complete);
      this.root?.classList.toggle('StripeElement--invalid', !!card.error);
      const event = {
        elementType: 'card',
        complete: card.complete,
        empty: card.empty,
        brand: brandOf(card.number),
        ...(card.error ? { error: { type: 'validation_error', code: 'invalid', message: card.error } } : {}),
      };
      for (const [name, cb] of this.listeners) if (name === 'change') cb(event);
    }

    on(name, cb) {
      this.listeners.push([name, cb]);
      return this;
    }

    off(name, cb) {
      this.listeners = this.listeners.filter(([n, c]) => n !== name || (cb && c !== cb));
      return this;
    }

    focus() {
      this.number?.focus();
    }

    clear() {
      for (const input of [this.number, this.expiry, this.cvc]) if (input) input.value = '';
      this.changed();
    }

    unmount() {
      this.root?.remove();
      this.root = null;
    }

    destroy() {
      this.unmount();
      this.listeners = [];
    }
  }

  /** The in-page stand-in of the bank's 3D Secure page: resolves true (completed) or false (failed). */
  function challenge() {
    return new Promise((resolve) => {
      const previous = document.activeElement;
      const overlay = document.createElement('div');
      overlay.setAttribute('data-stripe-standin', 'challenge');
      overlay.style.cssText =
        'position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:2147483647;padding:1rem';
      const dialog = document.createElement('div');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-labelledby', 'stripe-standin-challenge-title');
      dialog.setAttribute('aria-describedby', 'stripe-standin-challenge-text');
      dialog.style.cssText =
        'background:#fff;color:#111;border-radius:8px;padding:1.25rem;max-width:22rem;width:100%;font:16px system-ui,sans-serif';
      const title = document.createElement('h2');
      title.id = 'stripe-standin-challenge-title';
      title.textContent = 'Authenticate this payment';
      title.style.cssText = 'margin:0 0 .5rem;font-size:1.15rem';
      const text = document.createElement('p');
      text.id = 'stripe-standin-challenge-text';
      text.textContent = "Test stand-in of your bank's 3D Secure check.";
      const buttons = document.createElement('div');
      buttons.style.cssText = 'display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem';
      const finish = (passed) => {
        overlay.remove();
        if (previous && typeof previous.focus === 'function') previous.focus();
        resolve(passed);
      };
      const button = (label, passed) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = label;
        b.style.cssText = 'padding:.5rem .9rem;font:inherit;cursor:pointer';
        b.addEventListener('click', () => finish(passed));
        buttons.appendChild(b);
        return b;
      };
      const complete = button('Complete authentication', true);
      const fail = button('Fail authentication', false);
      dialog.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') finish(false);
        if (event.key === 'Tab') {
          // Keeps the focus inside the dialog.
          const first = complete;
          const last = fail;
          if (event.shiftKey && document.activeElement === first) {
            event.preventDefault();
            last.focus();
          } else if (!event.shiftKey && document.activeElement === last) {
            event.preventDefault();
            first.focus();
          }
        }
      });
      dialog.append(title, text, buttons);
      overlay.appendChild(dialog);
      document.body.appendChild(overlay);
      complete.focus();
    });
  }

  class StripeStandin {
    constructor(publishableKey) {
      if (!publishableKey) throw new Error('Stripe(): a publishable key is required');
      this.key = publishableKey;
    }

    elements() {
      return {
        create(type, options) {
          if (type !== 'card')
            throw new Error(`Stripe stand-in: only the 'card' element is available, not '${type}'`);
          return new CardElement(options);
        },
      };
    }

    confirmCardPayment(clientSecret, data) {
      return this.confirm('payment_intents', 'paymentIntent', clientSecret, data);
    }

    confirmCardSetup(clientSecret, data) {
      return this.confirm('setup_intents', 'setupIntent', clientSecret, data);
    }

    async confirm(resource, name, clientSecret, data) {
      const id = String(clientSecret || '').split('_secret_')[0];
      const method = data?.payment_method;
      const params = { key: this.key, client_secret: clientSecret };
      if (typeof method === 'string') params.payment_method = method;
      else if (method?.card instanceof CardElement) {
        const card = method.card.read();
        if (!card.complete)
          return {
            error: {
              type: 'validation_error',
              code: 'incomplete_number',
              message: card.error || 'Your card number is incomplete.',
            },
          };
        params.payment_method_data = {
          type: 'card',
          card: { number: card.number, exp_month: card.month, exp_year: card.year, cvc: card.cvc },
          billing_details: method.billing_details,
        };
      } else {
        return {
          error: {
            type: 'integration_error',
            code: 'invalid_payment_method',
            message: 'Pass a card element',
          },
        };
      }
      let answer = await call('POST', `/v1/${resource}/${id}/confirm`, params);
      if (answer.error) return { error: answer.error };
      let intent = answer.ok;
      if (intent.status === 'requires_action') {
        const passed = await challenge();
        answer = await call('POST', `/standin/3ds/${id}`, {
          key: this.key,
          client_secret: clientSecret,
          outcome: passed ? 'complete' : 'fail',
        });
        if (answer.error) return { error: answer.error };
        intent = answer.ok;
      }
      const failure = intent.last_payment_error || intent.last_setup_error;
      if (intent.status === 'requires_payment_method' && failure)
        return {
          error: {
            type: failure.type,
            code: failure.code,
            decline_code: failure.decline_code,
            message: failure.message,
            [name]: { id: intent.id, status: intent.status },
          },
        };
      return { [name]: { id: intent.id, status: intent.status } };
    }
  }

  // A plain function, as Stripe.js's: pages call Stripe(key), some call new Stripe(key).
  window.Stripe = function Stripe(publishableKey) {
    return new StripeStandin(publishableKey);
  };
}

import { describe, expect, it } from 'vitest';
import { anonymousState, signedInState } from '../../test/fixtures';
import { paymentInfos } from './billing.fixture';
import {
  billingManagerId,
  billingStateOf,
  cardState,
  hasBilling,
  mismatchRetryDelay,
  planCheck,
} from './billing-state';

/** A local calendar instant (the user's date, as the rule reads it). */
const at = (year: number, month: number, day: number, hour = 12, minute = 0) =>
  new Date(year, month - 1, day, hour, minute);

describe('cardState (spec §4: expired once its month passed, about to expire once the month before passed)', () => {
  const march2027 = { exp_month: 3, exp_year: 2027 };

  it('is valid up to the last instant of the month before the expiry month', () => {
    expect(cardState(march2027, at(2027, 1, 31, 23, 59))).toBe('valid');
    expect(cardState(march2027, at(2027, 2, 28, 23, 59))).toBe('valid');
  });

  it('is about to expire during the expiry month, from its first to its last instant', () => {
    expect(cardState(march2027, at(2027, 3, 1, 0, 0))).toBe('about_to_expire');
    expect(cardState(march2027, at(2027, 3, 31, 23, 59))).toBe('about_to_expire');
  });

  it('is expired from the first instant of the month after', () => {
    expect(cardState(march2027, at(2027, 4, 1, 0, 0))).toBe('expired');
    expect(cardState(march2027, at(2030, 1, 1))).toBe('expired');
  });

  it('counts across a year end', () => {
    const december = { exp_month: 12, exp_year: 2026 };
    expect(cardState(december, at(2026, 11, 30, 23, 59))).toBe('valid');
    expect(cardState(december, at(2026, 12, 1, 0, 0))).toBe('about_to_expire');
    expect(cardState(december, at(2027, 1, 1, 0, 0))).toBe('expired');
    const january = { exp_month: 1, exp_year: 2027 };
    expect(cardState(january, at(2026, 12, 31, 23, 59))).toBe('valid');
    expect(cardState(january, at(2027, 1, 1, 0, 0))).toBe('about_to_expire');
    expect(cardState(january, at(2027, 2, 1, 0, 0))).toBe('expired');
  });
});

describe('billingStateOf (spec §4 billing state)', () => {
  const now = at(2027, 3, 15);

  it('runs the card checks when the intent succeeded or is processing', () => {
    for (const intentStatus of ['succeeded', 'processing'] as const) {
      expect(
        billingStateOf(paymentInfos({ intentStatus }, { exp_month: 2, exp_year: 2027 }), now).alert,
      ).toMatchObject({ kind: 'card_expired', card: { last4: '4242' } });
      expect(
        billingStateOf(paymentInfos({ intentStatus }, { exp_month: 3, exp_year: 2027 }), now).alert.kind,
      ).toBe('card_about_to_expire');
      expect(
        billingStateOf(paymentInfos({ intentStatus }, { exp_month: 4, exp_year: 2027 }), now).alert.kind,
      ).toBe('none');
    }
  });

  it('asks for the user when requires_action or requires_confirmation comes with a failed client secret', () => {
    for (const intentStatus of ['requires_action', 'requires_confirmation'] as const) {
      expect(
        billingStateOf(paymentInfos({ intentStatus, failedIntentClientSecret: 'pi_1_secret_2' }), now).alert,
      ).toEqual({ kind: 'action_required', clientSecret: 'pi_1_secret_2' });
    }
  });

  it('asks for a payment method on any other status (and on an action without a secret)', () => {
    expect(billingStateOf(paymentInfos({ intentStatus: 'requires_payment_method' }), now).alert.kind).toBe(
      'payment_method_required',
    );
    expect(
      billingStateOf(paymentInfos({ intentStatus: 'requires_action', failedIntentClientSecret: null }), now)
        .alert.kind,
    ).toBe('payment_method_required');
  });

  it('gives the due-amount dialog when open invoices are above 0, whatever the alert', () => {
    expect(billingStateOf(paymentInfos({ openedInvoicesAmount: 0 }), now).due).toBeNull();
    expect(billingStateOf(paymentInfos({ openedInvoicesAmount: 1200, currency: 'GBP' }), now).due).toEqual({
      amount: 1200,
      currency: 'GBP',
    });
    const manual = billingStateOf(
      paymentInfos({ provider: 'MANUAL', intentStatus: null, openedInvoicesAmount: 12000 }, null),
      now,
    );
    expect(manual).toEqual({ alert: { kind: 'none' }, due: { amount: 12000, currency: 'EUR' } });
  });

  it('says nothing without a subscription or payment infos', () => {
    expect(billingStateOf(paymentInfos(null), now)).toEqual({ alert: { kind: 'none' }, due: null });
    expect(billingStateOf(undefined, now)).toEqual({ alert: { kind: 'none' }, due: null });
  });
});

describe('planCheck (spec §4 plan mismatch)', () => {
  it('retries towards the live subscription plan when the session differs', () => {
    expect(planCheck(paymentInfos({ planType: 'TEAM', planCode: 'TEAM10' }), 'PREMIUM')).toEqual({
      kind: 'retry',
      expected: 'TEAM',
    });
    expect(planCheck(paymentInfos({ planType: 'PREMIUM' }), 'PREMIUM')).toEqual({ kind: 'match' });
  });

  it('refreshes once when there is no subscription but the session has a plan', () => {
    expect(planCheck(paymentInfos(null), 'PREMIUM')).toEqual({ kind: 'refresh_once' });
    expect(planCheck(paymentInfos(null), 'NONE')).toEqual({ kind: 'match' });
  });

  it('does not count an unpaid (incomplete) subscription as giving its plan', () => {
    expect(planCheck(paymentInfos({ status: 'incomplete' }), 'NONE')).toEqual({ kind: 'match' });
  });

  it('waits 1 s times the attempt number', () => {
    expect([1, 2, 3, 4, 5].map(mismatchRetryDelay)).toEqual([1000, 2000, 3000, 4000, 5000]);
  });
});

describe('who has BILLING (spec §6)', () => {
  it('is the paying account itself, or a member with BILLING', () => {
    expect(hasBilling(anonymousState())).toBe(false);
    expect(hasBilling(signedInState())).toBe(true);
    const member = signedInState({
      managerId: 'm_1',
      authorization: { managerId: 'm_1', permissions: ['TRANSFER_MANAGER'] },
    });
    expect(hasBilling(member)).toBe(false);
    expect(billingManagerId(member)).toBe('m_1');
    const biller = signedInState({
      managerId: 'm_1',
      authorization: { managerId: 'm_1', permissions: ['BILLING'] },
    });
    expect(hasBilling(biller)).toBe(true);
    expect(billingManagerId(signedInState())).toBe('u_1');
  });
});

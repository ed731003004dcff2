import {
  BILLING_FREQUENCIES,
  type BillingFrequency,
  CURRENCIES,
  type Currency,
  type PlanCode,
  SELF_SERVICE_PLAN_CODES,
  type StartSubscriptionResponse,
  type Subscription,
} from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { getCurrentSubscription } from '../../lib/billing-api';
import { getUserProfile } from '../../lib/user-api';
import { AccountLayout } from '../account/account-layout';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { billingManagerId, hasBilling } from './billing-state';
import { Checkout, type CheckoutStart } from './checkout';
import { SubscriptionDetails } from './subscription-details';
import { paymentInfosKey, useCatalogue, usePaymentInfos, usePlanPolling } from './use-billing';
import './billing.css';

function pick<T extends string>(value: string | null | undefined, options: readonly T[]): T | undefined {
  const upper = value?.toUpperCase();
  return (options as readonly string[]).includes(upper ?? '') ? (upper as T) : undefined;
}

/**
 * What the checkout starts from: `?plan=…&frequency=…&trial=…&currency=…` (from /prices), else the plan chosen
 * at sign-up (/register?type=…, kept on the account).
 */
export function checkoutStartOf(
  search: URLSearchParams,
  chosen: { type: string; frequency?: string | undefined; trial?: boolean | undefined } | null,
): CheckoutStart {
  const planCode = pick<PlanCode>(search.get('plan'), SELF_SERVICE_PLAN_CODES);
  if (planCode) {
    const trial = search.get('trial')?.toLowerCase();
    return {
      planCode,
      frequency: pick<BillingFrequency>(search.get('frequency'), BILLING_FREQUENCIES),
      trial: trial === 'true' ? true : trial === 'false' ? false : undefined,
      currency: pick<Currency>(search.get('currency'), CURRENCIES),
    };
  }
  if (!chosen) return {};
  return {
    planCode: pick<PlanCode>(chosen.type, SELF_SERVICE_PLAN_CODES),
    frequency: pick<BillingFrequency>(chosen.frequency, BILLING_FREQUENCIES),
    trial: chosen.trial,
  };
}

export function subscriptionKey(uid: string | null): unknown[] {
  return [ACCOUNT_QUERY_KEY, uid, 'billing', 'subscription'];
}

/** For a member without BILLING: who manages the team's billing. */
function ManagedBy({ managerId }: { managerId: string }) {
  const { t } = useTranslation();
  const manager = useQuery({
    queryKey: [ACCOUNT_QUERY_KEY, managerId, 'user', managerId],
    queryFn: ({ signal }) => getUserProfile(managerId, signal),
    retry: false,
  });
  const who = manager.data
    ? manager.data.info.firstname
      ? `${manager.data.info.firstname} (${manager.data.email})`
      : manager.data.email
    : null;
  return (
    <p className="notice" data-testid="billing-managed-by">
      {who ? t('billing:managed_by', { who }) : t('billing:managed_by_manager')}
    </p>
  );
}

function Billing({ uid }: { uid: string }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const catalogue = useCatalogue();
  const infos = usePaymentInfos();
  const polling = usePlanPolling();
  const [started, setStarted] = useState<StartSubscriptionResponse | null>(null);
  const current = useQuery({
    queryKey: subscriptionKey(uid),
    queryFn: ({ signal }) => getCurrentSubscription(signal),
  });
  const update = (next: Subscription | null) => {
    queryClient.setQueryData(subscriptionKey(uid), { subscription: next });
    void queryClient.invalidateQueries({ queryKey: paymentInfosKey(uid) });
  };

  if (current.isPending || catalogue.isPending) {
    return (
      <p className="muted" role="status" aria-busy="true">
        {t('billing:loading')}
      </p>
    );
  }
  const error = current.error ?? catalogue.error;
  if (error) {
    return (
      <p className="notice notice-error" role="alert" data-testid="subscriptions-error">
        {describe(error)}
      </p>
    );
  }
  const subscription = current.data?.subscription ?? null;
  if (subscription && subscription.status !== 'canceled' && !started) {
    return (
      <SubscriptionDetails
        subscription={subscription}
        catalogue={catalogue.data}
        infos={infos.data}
        planWait={polling.status}
        onUpdated={update}
        onPlanChanged={(code) => polling.start(code)}
      />
    );
  }
  if (!catalogue.data) return null;
  return (
    <>
      {subscription?.status === 'canceled' && !started && (
        <p className="muted" data-testid="subscription-ended">
          {t('billing:subscription_ended', { plan: t(`billing:plan_name_${subscription.planCode}`) })}
        </p>
      )}
      {!started && state.planType !== 'NONE' && (
        <p className="notice" data-testid="plan-without-subscription">
          {t('billing:plan_without_subscription', { plan: t(`auth:plan_${state.planType}`) })}
        </p>
      )}
      <Checkout
        catalogue={catalogue.data}
        start={checkoutStartOf(search, state.chosenPlan)}
        onStarted={(result) => {
          setStarted(result);
          void queryClient.invalidateQueries({ queryKey: paymentInfosKey(uid) });
        }}
      />
    </>
  );
}

/**
 * `/account/subscriptions` (spec §2): for a user with BILLING, the subscription (plan, status, period end, price
 * and VAT, card on file; change, cancel at the period's end, resume), or the checkout when there is none. A team
 * member without BILLING sees who manages billing.
 */
export function SubscriptionsPage() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const uid = state.user?.uid ?? null;
  const managerId = billingManagerId(state);
  return (
    <AccountLayout section="subscriptions" title={t('billing:subscriptions_title')}>
      {uid && hasBilling(state) ? (
        <Billing uid={uid} />
      ) : managerId ? (
        <ManagedBy managerId={managerId} />
      ) : null}
    </AccountLayout>
  );
}

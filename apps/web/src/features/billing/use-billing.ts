import {
  type PaymentInfos,
  PLAN_MISMATCH_MAX_RETRIES,
  type PlanCode,
  type PlanType,
  planTypeOfCode,
} from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { getAuthState } from '../../lib/auth-api';
import { getPaymentInfos, getPlanCatalogue } from '../../lib/billing-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { pollUntilPlan } from '../auth/session-timing';
import {
  type BillingState,
  billingManagerId,
  billingStateOf,
  hasBilling,
  mismatchRetryDelay,
  planCheck,
} from './billing-state';

/** The catalogue (public, the same for everyone): cached for the visit; asked for only while `enabled`. */
export function useCatalogue(enabled = true) {
  return useQuery({
    queryKey: ['billing', 'catalogue'],
    queryFn: ({ signal }) => getPlanCatalogue(signal),
    enabled,
  });
}

/** Query key of the signed-in user's payment infos (dropped at sign-out with the account's other data). */
export function paymentInfosKey(uid: string | null): unknown[] {
  return [ACCOUNT_QUERY_KEY, uid, 'billing', 'payment-infos'];
}

/** GET /pay/customers/{managerId}/payment-infos, for a user with BILLING only (spec §4). */
export function usePaymentInfos() {
  const { state } = useAuth();
  const allowed = hasBilling(state);
  const managerId = billingManagerId(state);
  return useQuery({
    queryKey: paymentInfosKey(state.user?.uid ?? null),
    queryFn: ({ signal }) => getPaymentInfos(managerId as string, signal),
    enabled: allowed && managerId !== null,
    retry: false,
  });
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Spec §4 plan mismatch, once per payment-infos answer: a live subscription whose plan type is not the
 * session's → refresh the session up to 5 times, waiting 1 s × the attempt number; no subscription but a paying
 * session plan → refresh it once.
 */
export function usePlanMismatchRetries(infos: PaymentInfos | undefined): void {
  const auth = useAuth();
  const planRef = useRef(auth.state.planType);
  planRef.current = auth.state.planType;
  const { reload } = auth;
  useEffect(() => {
    if (!infos) return;
    const check = planCheck(infos, planRef.current);
    if (check.kind === 'match') return;
    if (check.kind === 'refresh_once') {
      void reload();
      return;
    }
    const controller = new AbortController();
    void (async () => {
      for (let attempt = 1; attempt <= PLAN_MISMATCH_MAX_RETRIES; attempt++) {
        await wait(mismatchRetryDelay(attempt), controller.signal);
        if (controller.signal.aborted) return;
        const next = await reload();
        if (controller.signal.aborted || next?.planType === check.expected) return;
      }
    })();
    return () => controller.abort();
  }, [infos, reload]);
}

/** Spec §4 billing state of the signed-in user (nothing for a user without BILLING), and its mismatch retries. */
export function useBillingState(now: () => Date = () => new Date()): {
  billing: BillingState;
  infos: PaymentInfos | undefined;
} {
  const infos = usePaymentInfos().data;
  usePlanMismatchRetries(infos);
  return { billing: billingStateOf(infos, now()), infos };
}

export type PlanWait = 'idle' | 'waiting' | 'done';

/**
 * Spec §4 "after a plan change": asks for a fresh session every 2 s until its plan type is `expected`, then
 * applies it and says done. Start with `start(planCode)`; stops when the page goes.
 */
export function usePlanPolling(): { status: PlanWait; start(code: PlanCode): void } {
  const auth = useAuth();
  const { reload } = auth;
  const [expected, setExpected] = useState<PlanType | null>(null);
  const [status, setStatus] = useState<PlanWait>('idle');
  useEffect(() => {
    if (!expected) return;
    const controller = new AbortController();
    setStatus('waiting');
    pollUntilPlan({
      expected,
      signal: controller.signal,
      fetchPlanType: async () => (await getAuthState()).planType,
    }).then(
      async () => {
        await reload();
        if (!controller.signal.aborted) setStatus('done');
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [expected, reload]);
  return {
    status,
    start: (code) => {
      setStatus('waiting');
      setExpected(planTypeOfCode(code));
    },
  };
}

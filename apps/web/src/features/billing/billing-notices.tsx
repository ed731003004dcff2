import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { getPlanCatalogue } from '../../lib/billing-api';
import { useAuth } from '../auth/auth-context';
import { useToast } from '../toasts/toast-context';
import type { BillingAlert } from './billing-state';
import { formatMoney } from './money';
import { loadStripe } from './stripe';
import { paymentInfosKey, useBillingState } from './use-billing';
import './billing.css';

function cardExpiry(card: { exp_month: number; exp_year: number }): string {
  return `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
}

/** Runs stripe.confirmCardPayment with the failed intent's client secret (spec §4 "user action required"). */
function ConfirmPaymentButton({ clientSecret }: { clientSecret: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { state } = useAuth();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const catalogue = await getPlanCatalogue();
      if (!catalogue.stripeJsUrl || !catalogue.stripePublishableKey) throw new Error('no Stripe');
      const stripe = await loadStripe(catalogue.stripeJsUrl, catalogue.stripePublishableKey);
      const result = await stripe.confirmCardPayment(clientSecret);
      if (result.error) {
        setProblem(result.error.message ?? t('billing:payment_failed'));
        return;
      }
      toast.show(t('billing:payment_confirmed'), 'success');
      await queryClient.invalidateQueries({ queryKey: paymentInfosKey(state.user?.uid ?? null) });
    } catch {
      setProblem(t('billing:stripe_unavailable'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className="button button-primary button-small"
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => void confirm()}
        data-testid="billing-confirm-payment"
      >
        {t('billing:confirm_payment')}
      </button>
      {problem && (
        <span className="billing-notice-error" role="alert" data-testid="billing-confirm-error">
          {problem}
        </span>
      )}
    </>
  );
}

function AlertText({ alert }: { alert: Exclude<BillingAlert, { kind: 'none' }> }) {
  const { t } = useTranslation();
  switch (alert.kind) {
    case 'card_expired':
      return <>{t('billing:card_expired', { last4: alert.card.last4, expiry: cardExpiry(alert.card) })}</>;
    case 'card_about_to_expire':
      return <>{t('billing:card_expiring', { last4: alert.card.last4, expiry: cardExpiry(alert.card) })}</>;
    case 'action_required':
      return <>{t('billing:action_required')}</>;
    case 'payment_method_required':
      return <>{t('billing:payment_method_required')}</>;
  }
}

/** The due-amount dialog (spec §4: open invoices above 0), until the user closes it for this visit. */
function DueDialog({ amount, currency, onClose }: { amount: number; currency: string; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof element.showModal === 'function' && !element.open) element.showModal();
    else element.setAttribute('open', '');
    return () => {
      if (element.open && typeof element.close === 'function') element.close();
      previous?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      data-testid="billing-due-dialog"
    >
      <h2 id={`${id}-title`} className="panel-title">
        {t('billing:due_title')}
      </h2>
      <p id={`${id}-text`}>
        {t('billing:due_text', { amount: formatMoney(amount, currency, i18n.language) })}
      </p>
      <div className="auth-actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={onClose}
          data-testid="billing-due-later"
        >
          {t('billing:due_later')}
        </button>
        <Link
          to="/account/invoices"
          className="button button-primary"
          onClick={onClose}
          data-testid="billing-due-invoices"
        >
          {t('billing:due_see_invoices')}
        </Link>
      </div>
    </dialog>
  );
}

/**
 * Spec §4 billing state, app-wide, for a user with BILLING: a notice for an expired or expiring card, a payment
 * waiting for the user (with the button that confirms it), a missing payment method; and the due-amount
 * dialog. The notice sits fixed at the bottom of the window, so the page never jumps when it appears.
 */
export function BillingNotices({ now }: { now?: () => Date }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { billing } = useBillingState(now);
  const [dueClosed, setDueClosed] = useState(false);
  const { alert, due } = billing;
  const onBillingPage = pathname.startsWith('/account/invoices');
  return (
    <>
      {alert.kind !== 'none' && (
        <div className="billing-notice" role="status" data-testid="billing-notice" data-kind={alert.kind}>
          <AlertIcon aria-hidden="true" />
          <p className="billing-notice-text">
            <AlertText alert={alert} />
          </p>
          <div className="billing-notice-actions">
            {alert.kind === 'action_required' ? (
              <ConfirmPaymentButton clientSecret={alert.clientSecret} />
            ) : (
              <Link
                to="/account/subscriptions"
                className="button button-secondary button-small"
                data-testid="billing-notice-manage"
              >
                {t('billing:update_payment_method')}
              </Link>
            )}
          </div>
        </div>
      )}
      {due && !dueClosed && !onBillingPage && (
        <DueDialog amount={due.amount} currency={due.currency} onClose={() => setDueClosed(true)} />
      )}
    </>
  );
}

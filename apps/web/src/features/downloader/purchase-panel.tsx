import type { Currency, StartPurchaseResponse } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { getPlanCatalogue, getPurchase, startPurchase } from '../../lib/billing-api';
import { CountrySelect, useBuyerCountry, useTaxRate } from '../billing/buyer-fields';
import { CardField, type CardReady } from '../billing/card-field';
import { formatMoney, vatOf } from '../billing/money';
import '../billing/billing.css';
import { keepPendingPurchase, keepPurchaseToken, pendingPurchaseOf } from './purchase-store';

const POLL_MS = 1000;
const POLL_LIMIT = 120;

/**
 * Buying a priced transfer on its download page (selling files): the price with the buyer's VAT, their e-mail
 * (the receipt and a personal link go there), the card, then the wait for the payment to be taken. The token the
 * server gives once paid is kept by this browser and unlocks the downloads. Loaded only for a transfer on sale.
 */
export default function PurchasePanel({
  transferId,
  price,
  onPurchased,
}: {
  transferId: string;
  price: { amount: number; currency: Currency };
  onPurchased(token: string): void;
}) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const [email, setEmail] = useState('');
  const [country, setCountry] = useBuyerCountry();
  const [vatTyped, setVatTyped] = useState('');
  const [card, setCard] = useState<CardReady | null>(null);
  const [cardComplete, setCardComplete] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [cardProblem, setCardProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [waitingFor, setWaitingFor] = useState<string | null>(() => pendingPurchaseOf(transferId) ?? null);
  const started = useRef<StartPurchaseResponse | null>(null);

  const catalogue = useQuery({
    queryKey: ['billing', 'catalogue'],
    queryFn: ({ signal }) => getPlanCatalogue(signal),
  });
  const vatNumber = vatTyped.replace(/[\s.-]/g, '') || undefined;
  const tax = useTaxRate(country, vatNumber);

  // A payment under way (this visit, or one before a reload or the provider's page): wait until it is taken.
  useEffect(() => {
    if (!waitingFor) return;
    let stopped = false;
    let tries = 0;
    const poll = async () => {
      while (!stopped && tries++ < POLL_LIMIT) {
        try {
          const state = await getPurchase(waitingFor);
          if (state.status === 'paid' && state.purchaseToken) {
            keepPurchaseToken(transferId, state.purchaseToken);
            onPurchased(state.purchaseToken);
            return;
          }
          if (state.status === 'failed') {
            setWaitingFor(null);
            setProblem(t('billing:purchase_failed'));
            return;
          }
        } catch (error) {
          setWaitingFor(null);
          setProblem(describe(error));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      if (!stopped) {
        setWaitingFor(null);
        setProblem(t('billing:purchase_slow'));
      }
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [waitingFor, transferId, onPurchased, t, describe]);

  const money = (minor: number) => formatMoney(minor, price.currency, i18n.language);
  const rate = tax.data?.rate ?? null;
  const vat = rate === null ? null : vatOf(price.amount, rate);
  const stripe = catalogue.data;
  const takesCards =
    stripe?.providers.includes('STRIPE') &&
    stripe.stripeJsUrl !== null &&
    stripe.stripePublishableKey !== null;
  const paypalOnly = stripe !== undefined && !takesCards && stripe.providers.includes('PAYPAL');
  const emailValid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());
  const vatInvalid = vatNumber !== undefined && tax.data?.vatNumberValid === false;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || country === null) return;
    setProblem(null);
    setCardProblem(null);
    if (!emailValid) {
      setProblem(t('billing:purchase_email_invalid'));
      return;
    }
    if (vatInvalid) {
      setProblem(t('billing:vat_invalid'));
      return;
    }
    if (takesCards && !cardComplete) {
      setCardProblem(t('billing:card_incomplete'));
      return;
    }
    setBusy(true);
    try {
      // A refused card is tried again on the same payment, not a new one.
      const answer =
        started.current ??
        (await startPurchase({
          transferId,
          email: email.trim(),
          countryCode: country,
          ...(vatNumber ? { vatNumber } : {}),
          ...(takesCards
            ? { provider: 'STRIPE' as const }
            : paypalOnly
              ? { provider: 'PAYPAL' as const }
              : {}),
        }));
      started.current = answer;
      keepPendingPurchase(transferId, answer.purchaseId);
      if (answer.approveUrl) {
        window.location.assign(answer.approveUrl);
        return;
      }
      if (answer.clientSecret) {
        if (!card) {
          setCardProblem(t('billing:stripe_unavailable'));
          return;
        }
        const outcome = await card.stripe.confirmCardPayment(answer.clientSecret, {
          payment_method: { card: card.card, billing_details: { email: email.trim() } },
        });
        if (outcome.error) {
          setCardProblem(outcome.error.message ?? t('billing:payment_failed'));
          return;
        }
      }
      setWaitingFor(answer.purchaseId);
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };

  if (waitingFor)
    return (
      <section className="purchase" id="buy" aria-live="polite" data-testid="purchase-waiting">
        <p className="muted" aria-busy="true">
          {t('billing:purchase_waiting')}
        </p>
      </section>
    );

  return (
    <section className="purchase" id="buy" aria-labelledby="purchase-title" data-testid="purchase">
      <h2 id="purchase-title" className="section-title">
        {t('billing:purchase_title')}
      </h2>
      <dl className="facts" data-testid="purchase-price">
        <div>
          <dt>{t('billing:purchase_price_label')}</dt>
          <dd>{money(price.amount)}</dd>
        </div>
        <div>
          <dt>
            {tax.data?.reverseCharge
              ? t('billing:reverse_charge')
              : `${t('billing:summary_vat')} ${rate ?? 0} %`}
          </dt>
          <dd>{vat === null ? '…' : money(vat)}</dd>
        </div>
        <div>
          <dt>{t('billing:purchase_total_label')}</dt>
          <dd data-testid="purchase-total">{vat === null ? '…' : money(price.amount + vat)}</dd>
        </div>
      </dl>
      <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <LabelledField label={t('billing:purchase_email_label')} hint={t('billing:purchase_email_hint')}>
          {(props) => (
            <input
              {...props}
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="purchase-email"
            />
          )}
        </LabelledField>
        <CountrySelect value={country} onChange={setCountry} testId="purchase-country" />
        <LabelledField
          label={t('billing:vat_number_label')}
          hint={t('billing:vat_number_hint')}
          error={vatInvalid ? t('billing:vat_invalid') : null}
        >
          {(props) => (
            <input
              {...props}
              value={vatTyped}
              onChange={(e) => setVatTyped(e.target.value)}
              autoComplete="off"
              data-testid="purchase-vat"
            />
          )}
        </LabelledField>
        {takesCards && stripe?.stripeJsUrl && stripe.stripePublishableKey && (
          <CardField
            stripeJsUrl={stripe.stripeJsUrl}
            publishableKey={stripe.stripePublishableKey}
            onReady={setCard}
            onComplete={setCardComplete}
            error={cardProblem}
          />
        )}
        {problem && (
          <p className="notice notice-error" role="alert" data-testid="purchase-error">
            {problem}
          </p>
        )}
        <button
          type="submit"
          className="button button-start button-block"
          disabled={busy || country === null || (!takesCards && !paypalOnly)}
          aria-busy={busy || undefined}
          data-testid="purchase-pay"
        >
          {vat === null
            ? t('billing:purchase_pay')
            : t('billing:purchase_pay_amount', { amount: money(price.amount + vat) })}
        </button>
      </form>
    </section>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadStripe, type StripeCardElement, type StripeLike } from './stripe';

export interface CardReady {
  stripe: StripeLike;
  card: StripeCardElement;
}

/**
 * The card entry of Stripe Elements: loads Stripe.js (from the catalogue's address), mounts a card element,
 * reports whether the card is complete; destroyed with the component. Stripe draws the inputs inside its own
 * frame; the label names the area for assistive technology.
 */
export function CardField({
  stripeJsUrl,
  publishableKey,
  onReady,
  onComplete,
  error,
}: {
  stripeJsUrl: string;
  publishableKey: string;
  onReady(ready: CardReady | null): void;
  onComplete(complete: boolean): void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const mountPoint = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [cardError, setCardError] = useState<string | null>(null);
  const callbacks = useRef({ onReady, onComplete });
  callbacks.current = { onReady, onComplete };

  useEffect(() => {
    let card: StripeCardElement | null = null;
    let gone = false;
    loadStripe(stripeJsUrl, publishableKey).then(
      (stripe) => {
        if (gone || !mountPoint.current) return;
        card = stripe.elements().create('card', { hidePostalCode: true });
        card.mount(mountPoint.current);
        card.on('change', (event) => {
          setCardError(event.error?.message ?? null);
          callbacks.current.onComplete(event.complete && !event.error);
        });
        setStatus('ready');
        callbacks.current.onReady({ stripe, card });
      },
      () => {
        if (!gone) setStatus('failed');
      },
    );
    return () => {
      gone = true;
      card?.destroy();
      callbacks.current.onReady(null);
      callbacks.current.onComplete(false);
    };
  }, [stripeJsUrl, publishableKey]);

  const shown = error ?? cardError;
  return (
    <fieldset className="field card-fieldset">
      <legend className="field-label">{t('billing:card_label')}</legend>
      <div
        ref={mountPoint}
        className="card-element"
        aria-describedby={shown ? `${id}-error` : undefined}
        aria-busy={status === 'loading' || undefined}
        data-testid="card-element"
      />
      {status === 'loading' && <p className="field-hint">{t('billing:card_loading')}</p>}
      {status === 'failed' && (
        <p className="field-error" role="alert" data-testid="card-unavailable">
          {t('billing:stripe_unavailable')}
        </p>
      )}
      {shown && (
        <p className="field-error" id={`${id}-error`} role="alert" data-testid="card-error">
          {shown}
        </p>
      )}
    </fieldset>
  );
}

import { PLAN_LIMITS, type PlanCatalogue, type PlanType } from '@ferry/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { intlLocale } from '../../lib/format';
import { formatStorage } from '../billing/plan-labels';
import { useCatalogue } from '../billing/use-billing';
import { VisitorDismissButton } from './dismiss-button';
import { useSessionDismissal, useVisitorHome } from './visitor-state';
import './visitors.css';

import { PROMO_DISMISSED_KEY } from './promo-keys';
import { PromoLoading } from './promo-loading';

export { PROMO_DISMISSED_KEY };

/** The paid plan types the panel presents, in order. */
const PROMOTED: readonly PlanType[] = ['PREMIUM', 'TEAM'];

/** Whether this instance sells `type` through checkout (a self-service offer with a price). */
export function sells(catalogue: PlanCatalogue, type: PlanType): boolean {
  return catalogue.plans.some((plan) => plan.planType === type && plan.selfService && plan.prices.length > 0);
}

/** "365 days", "365 jours", "365 дней": Intl chooses the plural form. */
function formatDays(days: number, locale: string): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    style: 'unit',
    unit: 'day',
    unitDisplay: 'long',
  }).format(days);
}

/**
 * Spec §2: the promo panel beside (below, on narrow screens) the uploader, for signed-out visitors of the main
 * domain's home. It presents only the paid plans this instance sells, with their real limits (core's plan
 * table) beside the free ones, and links to the prices and to sign-up: with a trial when the instance gives
 * one. Nothing shows until the catalogue says what is sold. Dismissed for the browser session.
 */
export function PromoPanel() {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const home = useVisitorHome();
  const [dismissed, dismiss] = useSessionDismissal(PROMO_DISMISSED_KEY);
  const shown = home && !dismissed;
  const { data: catalogue, isPending } = useCatalogue(shown);
  if (shown && isPending) return <PromoLoading />;
  if (!shown || !catalogue) return null;
  const sold = PROMOTED.filter((type) => sells(catalogue, type));
  if (sold.length === 0) return null;
  const locale = i18n.language;
  const limitsOf = (type: PlanType) => ({
    size: formatStorage(PLAN_LIMITS[type].uploadSizeGB, locale),
    duration: formatDays(PLAN_LIMITS[type].fileValidityInDays, locale),
  });
  const premium = sold.includes('PREMIUM');
  const trial = premium && catalogue.trialDays > 0;
  return (
    <section className="panel promo-panel" aria-labelledby={titleId} data-testid="promo-panel">
      <div className="promo-head">
        <h2 id={titleId} className="promo-title">
          {t('common:promo_title')}
        </h2>
        <VisitorDismissButton label={t('common:promo_dismiss')} testId="promo-dismiss" onDismiss={dismiss} />
      </div>
      <ul className="promo-plans">
        {sold.map((type) => (
          <li key={type} data-testid={`promo-${type}`}>
            {t('common:promo_plan', { plan: t(`auth:plan_${type}`), ...limitsOf(type) })}
          </li>
        ))}
      </ul>
      <p className="promo-free" data-testid="promo-free">
        {t('common:promo_plan', { plan: t('auth:plan_NONE'), ...limitsOf('NONE') })}
      </p>
      <div className="promo-actions">
        <Link to="/prices" className="button button-secondary" data-testid="promo-prices">
          {t('common:promo_prices')}
        </Link>
        {premium && (
          <Link
            to={trial ? '/register?type=PREMIUM&trial=true' : '/register?type=PREMIUM'}
            className="button button-primary"
            data-testid="promo-register"
          >
            {trial
              ? t('common:promo_trial', {
                  plan: t('auth:plan_PREMIUM'),
                  duration: formatDays(catalogue.trialDays, locale),
                })
              : t('billing:choose', { plan: t('auth:plan_PREMIUM') })}
          </Link>
        )}
      </div>
    </section>
  );
}

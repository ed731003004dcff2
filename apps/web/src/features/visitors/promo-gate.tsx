import { lazy, Suspense } from 'react';
import { withTexts } from '../../i18n/texts';
import { PROMO_DISMISSED_KEY } from './promo-keys';
import { PromoLoading } from './promo-loading';
import { useSessionDismissal, useVisitorHome } from './visitor-state';

// The panel reads the plan catalogue through the billing module: fetched only when the panel is shown, so a
// visitor's home page loads no billing code (apps/web/build/build-output.test.ts).
const PromoPanel = lazy(withTexts(() => import('./promo-panel').then((m) => ({ default: m.PromoPanel }))));

/** The promo panel's place beside the uploader: the panel itself, loaded when a signed-out visitor's home shows it. */
export function PromoSlot() {
  const home = useVisitorHome();
  const [dismissed] = useSessionDismissal(PROMO_DISMISSED_KEY);
  if (!home || dismissed) return null;
  return (
    <Suspense fallback={<PromoLoading />}>
      <PromoPanel />
    </Suspense>
  );
}

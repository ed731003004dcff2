import { lazy, Suspense } from 'react';
import { withTexts } from '../../i18n/texts';
import { useAuth } from '../auth/auth-context';
import { hasBilling } from './billing-state';

const BillingNotices = lazy(
  withTexts(async () => ({ default: (await import('./billing-notices')).BillingNotices })),
);

/**
 * The billing notices of spec §4 where they apply: for a signed-in user with BILLING only, so that a visitor's
 * page never loads the billing code (its chunk comes with the first such user).
 */
export function BillingNoticesSlot() {
  const { state } = useAuth();
  if (!hasBilling(state)) return null;
  return (
    <Suspense fallback={null}>
      <BillingNotices />
    </Suspense>
  );
}

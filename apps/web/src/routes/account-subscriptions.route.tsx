import { SubscriptionsPage } from '../features/billing/subscriptions-page';

/** `/account/subscriptions` (with the checkout when there is no subscription) */
export default function AccountSubscriptionsRoute() {
  return <SubscriptionsPage />;
}

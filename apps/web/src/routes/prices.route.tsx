import { PricesPage } from '../features/billing/prices-page';

/** `/prices` */
export default function PricesRoute() {
  return <PricesPage />;
}

import { InvoicesPage } from '../features/billing/invoices-page';

/** `/account/invoices` */
export default function AccountInvoicesRoute() {
  return <InvoicesPage />;
}

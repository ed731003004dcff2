import type { Invoice } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { listInvoices } from '../../lib/billing-api';
import { formatDate } from '../../lib/format';
import { AccountLayout } from '../account/account-layout';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { billingManagerId, hasBilling } from './billing-state';
import { formatMoney } from './money';
import './billing.css';

function InvoiceTable({ invoices }: { invoices: Invoice[] }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number, currency: string) => formatMoney(minor, currency, i18n.language);
  return (
    <div className="table-scroll">
      <table className="invoice-table" data-testid="invoice-table">
        <caption className="visually-hidden">{t('billing:invoices_caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('billing:invoice_number')}</th>
            <th scope="col">{t('billing:invoice_date')}</th>
            <th scope="col">{t('billing:status_label')}</th>
            <th scope="col" className="numeric">
              {t('billing:summary_total')}
            </th>
            <th scope="col" className="numeric">
              {t('billing:amount_due')}
            </th>
            <th scope="col">
              <span className="visually-hidden">{t('billing:invoice_pdf')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.number} data-testid="invoice-row" data-status={invoice.status}>
              <th scope="row" className="mono">
                {invoice.number}
              </th>
              <td>{formatDate(invoice.issuedAt, i18n.language)}</td>
              <td>
                <span className={invoice.status === 'paid' ? 'badge badge-success' : 'badge'}>
                  {t(`billing:invoice_status_${invoice.status}`)}
                </span>
              </td>
              <td className="numeric">{money(invoice.total, invoice.currency)}</td>
              <td className="numeric">{money(invoice.amountDue, invoice.currency)}</td>
              <td>
                <a href={invoice.pdfUrl} download data-testid="invoice-pdf">
                  {t('billing:download_invoice', { number: invoice.number })}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `/account/invoices` (spec §2): the paying account's invoices with their PDFs, for a user with BILLING. */
export function InvoicesPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const allowed = hasBilling(state);
  const uid = state.user?.uid ?? null;
  const invoices = useQuery({
    queryKey: [ACCOUNT_QUERY_KEY, uid, 'billing', 'invoices'],
    queryFn: ({ signal }) => listInvoices(signal),
    enabled: allowed,
  });
  return (
    <AccountLayout section="invoices" title={t('billing:invoices_title')}>
      {!allowed ? (
        <p className="notice" data-testid="billing-managed-by">
          {billingManagerId(state) ? t('billing:managed_by_manager') : null}
        </p>
      ) : invoices.isPending ? (
        <p className="muted" role="status" aria-busy="true">
          {t('billing:loading')}
        </p>
      ) : invoices.isError ? (
        <p className="notice notice-error" role="alert" data-testid="invoices-error">
          {describe(invoices.error)}
        </p>
      ) : invoices.data.invoices.length === 0 ? (
        <div data-testid="invoices-empty">
          <p className="muted">{t('billing:invoices_empty')}</p>
          <Link to="/prices" className="button button-secondary">
            {t('billing:see_prices')}
          </Link>
        </div>
      ) : (
        <InvoiceTable invoices={invoices.data.invoices} />
      )}
    </AccountLayout>
  );
}

import type { TransferDetail } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { formatMoney } from '../../billing/money';
import '../../billing/billing.css';

/** Selling files: a priced transfer's price and its paid sales, for its seller. */
export function TransferSales({ transfer }: { transfer: TransferDetail }) {
  const { t, i18n } = useTranslation();
  const price = transfer.price;
  if (!price) return null;
  const money = (minor: number) => formatMoney(minor, price.currency, i18n.language);
  const revenue = transfer.sales.reduce((sum, sale) => sum + sale.amount, 0);
  return (
    <section
      className="panel dashboard-card"
      aria-labelledby="transfer-sales-title"
      data-testid="transfer-sales"
    >
      <h2 id="transfer-sales-title" className="section-title">
        {t('billing:sales_title')}
      </h2>
      <p data-testid="transfer-sales-summary">
        {t('billing:sales_summary', {
          price: money(price.amount),
          count: transfer.sales.length,
          revenue: money(revenue),
        })}
      </p>
      {transfer.sales.length > 0 && (
        <div className="table-scroll">
          <table className="invoice-table">
            <caption className="visually-hidden">{t('billing:sales_title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('billing:sales_date')}</th>
                <th scope="col">{t('billing:sales_buyer')}</th>
                <th scope="col">{t('billing:sales_country')}</th>
                <th scope="col">{t('billing:sales_amount')}</th>
                <th scope="col">{t('billing:summary_vat')}</th>
                <th scope="col">{t('billing:sales_total')}</th>
                <th scope="col">{t('billing:sales_receipt')}</th>
              </tr>
            </thead>
            <tbody>
              {transfer.sales.map((sale) => (
                <tr
                  key={`${sale.paidAt}-${sale.email}-${sale.receiptNumber ?? ''}`}
                  data-testid="transfer-sale"
                >
                  <td>{formatDateTime(sale.paidAt, i18n.language)}</td>
                  <td>{sale.email}</td>
                  <td>{sale.countryCode}</td>
                  <td>{money(sale.amount)}</td>
                  <td>{money(sale.tax)}</td>
                  <td>{money(sale.total)}</td>
                  <td>{sale.receiptNumber ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

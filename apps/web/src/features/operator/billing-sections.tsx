import type { OperatorInvoice } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDate, intlLocale } from '../../lib/format';
import {
  listOperatorInvoices,
  listOperatorSubscriptions,
  markInvoicePaid,
  voidInvoice,
} from '../../lib/operator-api';
import { useToast } from '../toasts/toast-context';
import { ConfirmDialog } from './confirm-dialog';
import { OPERATOR_KEY, operatorKeys } from './operator-keys';

/** An amount in minor units as money of its currency, in the page's language. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency }).format(minor / 100);
}

export function SubscriptionsSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const describe = useDescribeError();
  const list = useQuery({
    queryKey: operatorKeys.subscriptions,
    queryFn: ({ signal }) => listOperatorSubscriptions(signal),
  });
  const items = list.data?.subscriptions ?? [];
  return (
    <section aria-labelledby={`${id}-title`} data-testid="operator-subscriptions">
      <h2 id={`${id}-title`} className="operator-title">
        {t('operator:subscriptions_title')}
      </h2>
      {list.isPending && <p aria-busy="true">{t('operator:loading')}</p>}
      {list.isError && (
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(list.error)}
        </p>
      )}
      {list.isSuccess && items.length === 0 && <p>{t('operator:subscriptions_empty')}</p>}
      {items.length > 0 && (
        <div className="operator-table-scroll">
          <table className="operator-table" data-testid="operator-subscriptions-table">
            <thead>
              <tr>
                <th scope="col">{t('operator:col_email')}</th>
                <th scope="col">{t('operator:col_plan')}</th>
                <th scope="col">{t('operator:col_frequency')}</th>
                <th scope="col">{t('operator:col_provider')}</th>
                <th scope="col">{t('operator:col_status')}</th>
                <th scope="col">{t('operator:col_amount')}</th>
                <th scope="col">{t('operator:col_period_end')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr key={s.id}>
                  <th scope="row">{s.email}</th>
                  <td>{s.planCode}</td>
                  <td>{s.frequency}</td>
                  <td>{s.provider}</td>
                  <td>
                    {s.status}
                    {s.cancelAtPeriodEnd ? ` (${t('operator:cancels_at_period_end')})` : ''}
                  </td>
                  <td>{formatMoney(s.amount, s.currency, i18n.language)}</td>
                  <td>{s.currentPeriodEnd ? formatDate(s.currentPeriodEnd, i18n.language) : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

type InvoiceAction = { invoice: OperatorInvoice; kind: 'paid' | 'void' };

/** Invoices (all, or only the open ones): a MANUAL one is marked paid, an open one voided, each confirmed first. */
export function InvoicesSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const toast = useToast();
  const client = useQueryClient();
  const describe = useDescribeError();
  const [open, setOpen] = useState(true);
  const [asking, setAsking] = useState<InvoiceAction | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useQuery({
    queryKey: operatorKeys.invoices(open),
    queryFn: ({ signal }) => listOperatorInvoices(open, signal),
  });
  const items = list.data?.invoices ?? [];

  const confirm = async ({ invoice, kind }: InvoiceAction) => {
    setBusy(true);
    try {
      await (kind === 'paid' ? markInvoicePaid(invoice.number) : voidInvoice(invoice.number));
      toast.show(
        t(kind === 'paid' ? 'operator:invoice_paid' : 'operator:invoice_voided', { number: invoice.number }),
        'success',
      );
      setAsking(null);
      await client.invalidateQueries({
        predicate: (q) => q.queryKey[0] === OPERATOR_KEY && q.queryKey[1] !== 'me',
      });
    } catch (error) {
      toast.show(describe(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} data-testid="operator-invoices">
      <h2 id={`${id}-title`} className="operator-title">
        {t('operator:invoices_title')}
      </h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={open}
          onChange={(event) => setOpen(event.target.checked)}
          data-testid="operator-invoices-open"
        />
        <span>{t('operator:invoices_open_only')}</span>
      </label>
      {list.isPending && <p aria-busy="true">{t('operator:loading')}</p>}
      {list.isError && (
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(list.error)}
        </p>
      )}
      {list.isSuccess && items.length === 0 && (
        <p data-testid="operator-invoices-empty">{t('operator:invoices_empty')}</p>
      )}
      {items.length > 0 && (
        <div className="operator-table-scroll">
          <table className="operator-table" data-testid="operator-invoices-table">
            <thead>
              <tr>
                <th scope="col">{t('operator:col_number')}</th>
                <th scope="col">{t('operator:col_email')}</th>
                <th scope="col">{t('operator:col_due')}</th>
                <th scope="col">{t('operator:col_status')}</th>
                <th scope="col">{t('operator:col_provider')}</th>
                <th scope="col">{t('operator:col_issued')}</th>
                <th scope="col">{t('operator:col_actions')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((invoice) => (
                <tr key={invoice.number} data-testid="operator-invoice-row">
                  <th scope="row">
                    <a
                      href={invoice.pdfUrl}
                      target="_blank"
                      rel="noreferrer"
                      data-testid="operator-invoice-pdf"
                    >
                      {invoice.number}
                      <span className="visually-hidden"> {t('operator:pdf')}</span>
                    </a>
                  </th>
                  <td>{invoice.email}</td>
                  <td>{formatMoney(invoice.amountDue, invoice.currency, i18n.language)}</td>
                  <td>{t(`operator:invoice_status_${invoice.status}`)}</td>
                  <td>{invoice.provider}</td>
                  <td>{formatDate(invoice.issuedAt, i18n.language)}</td>
                  <td>
                    <div className="operator-row-actions">
                      {invoice.status === 'open' && invoice.provider === 'MANUAL' && (
                        <button
                          type="button"
                          className="button button-primary button-small"
                          onClick={() => setAsking({ invoice, kind: 'paid' })}
                          data-testid="operator-invoice-mark-paid"
                        >
                          {t('operator:mark_paid')}
                        </button>
                      )}
                      {invoice.status === 'open' && (
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          onClick={() => setAsking({ invoice, kind: 'void' })}
                          data-testid="operator-invoice-void"
                        >
                          {t('operator:void')}
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {asking && (
        <ConfirmDialog
          title={t(asking.kind === 'paid' ? 'operator:mark_paid_title' : 'operator:void_title', {
            number: asking.invoice.number,
          })}
          text={t(asking.kind === 'paid' ? 'operator:mark_paid_text' : 'operator:void_text', {
            email: asking.invoice.email,
            amount: formatMoney(asking.invoice.amountDue, asking.invoice.currency, i18n.language),
          })}
          confirmLabel={t(asking.kind === 'paid' ? 'operator:mark_paid' : 'operator:void')}
          busy={busy}
          onConfirm={() => void confirm(asking)}
          onCancel={() => setAsking(null)}
          testId="operator-invoice-confirm"
        />
      )}
    </section>
  );
}

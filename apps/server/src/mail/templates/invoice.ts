import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface InvoiceMailInput {
  number: string;
  /** Minor units. */
  total: number;
  amountDue: number;
  currency: string;
  dueAt: Date | null;
  paidAt: Date | null;
  /** The seller's bank details (MANUAL). */
  bankDetails: string | null;
  /** Where the signed-in buyer downloads the PDF. */
  pdfUrl: string;
  /** The account's invoices page. */
  invoicesUrl: string;
}

function money(amount: number, currency: string, intl: string): string {
  return new Intl.NumberFormat(intl, { style: 'currency', currency }).format(amount / 100);
}

/** A MANUAL invoice was issued: what to pay, by when, where; the PDF behind a link. */
export async function invoiceIssued(ctx: MailContext, input: InvoiceMailInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const amount = money(input.amountDue, input.currency, k.intl);
  const rows = [
    { label: t('invoice_number_label'), value: input.number },
    { label: t('invoice_amount_due_label'), value: amount },
  ];
  if (input.dueAt) rows.push({ label: t('invoice_due_label'), value: k.date(input.dueAt) });
  return renderMail(
    k.content({
      subject: t('invoice_issued_subject', { product: k.product, number: input.number }),
      preview: t('invoice_issued_intro', { product: k.product, number: input.number, amount }),
      heading: t('invoice_issued_heading'),
      blocks: [
        {
          kind: 'paragraph',
          text: t('invoice_issued_intro', { product: k.product, number: input.number, amount }),
        },
        { kind: 'facts', rows },
        ...(input.bankDetails
          ? [
              {
                kind: 'quote' as const,
                label: t('invoice_bank_label', { number: input.number }),
                text: input.bankDetails,
              },
            ]
          : []),
        { kind: 'paragraph', text: t('invoice_plan_starts') },
        k.button(input.pdfUrl, t('invoice_pdf_button')),
        { kind: 'paragraph', text: t('invoice_all_invoices', { url: input.invoicesUrl }) },
      ],
      why: t('invoice_why', { product: k.product }),
    }),
  );
}

/** An invoice was paid (marked by an operator, or charged by a card provider): the receipt. */
export async function invoiceReceipt(ctx: MailContext, input: InvoiceMailInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const amount = money(input.total, input.currency, k.intl);
  const rows = [
    { label: t('invoice_number_label'), value: input.number },
    { label: t('invoice_paid_amount_label'), value: amount },
  ];
  if (input.paidAt) rows.push({ label: t('invoice_paid_on_label'), value: k.date(input.paidAt) });
  return renderMail(
    k.content({
      subject: t('invoice_receipt_subject', { product: k.product, number: input.number }),
      preview: t('invoice_receipt_intro', { number: input.number, amount }),
      heading: t('invoice_receipt_heading'),
      blocks: [
        { kind: 'paragraph', text: t('invoice_receipt_intro', { number: input.number, amount }) },
        { kind: 'facts', rows },
        k.button(input.pdfUrl, t('invoice_pdf_button')),
        { kind: 'paragraph', text: t('invoice_all_invoices', { url: input.invoicesUrl }) },
      ],
      why: t('invoice_why', { product: k.product }),
    }),
  );
}

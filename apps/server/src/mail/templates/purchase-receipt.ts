import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface PurchaseReceiptInput {
  /** The transfer's name as its seller gave it; null when it has none. */
  name: string | null;
  fileCount: number;
  /** Formatted amounts (currency included): price without VAT, VAT, total paid. */
  amount: string;
  tax: string;
  total: string;
  /** VAT in percent; 0 with reverse charge or outside the EU. */
  taxRate: number;
  reverseCharge: boolean;
  receiptNumber: string | null;
  paidAt: Date;
  /** The buyer's personal link: the transfer's page with the purchase token. */
  url: string;
  expiresAt: Date;
}

/** To a buyer of a priced transfer: the receipt, and the personal link that downloads what they bought. */
export async function purchaseReceipt(ctx: MailContext, input: PurchaseReceiptInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const what = k.transferName(input.name?.trim(), input.fileCount);
  return renderMail(
    k.content({
      subject: t('purchase_receipt_subject', { what }),
      preview: t('purchase_receipt_intro', { what }),
      heading: t('purchase_receipt_heading'),
      blocks: [
        { kind: 'paragraph', text: t('purchase_receipt_intro', { what }) },
        k.button(input.url, t('purchase_receipt_button')),
        {
          kind: 'facts',
          rows: [
            ...(input.receiptNumber
              ? [{ label: t('purchase_receipt_number_label'), value: input.receiptNumber }]
              : []),
            { label: t('purchase_receipt_date_label'), value: k.dateTime(input.paidAt) },
            { label: t('purchase_receipt_price_label'), value: input.amount },
            {
              label: input.reverseCharge
                ? t('purchase_receipt_reverse_charge_label')
                : t('purchase_receipt_tax_label', { rate: input.taxRate }),
              value: input.tax,
            },
            { label: t('purchase_receipt_total_label'), value: input.total },
          ],
        },
        { kind: 'paragraph', text: t('purchase_receipt_keep_link', { date: k.date(input.expiresAt) }) },
      ],
      why: t('purchase_receipt_why', { product: k.product }),
    }),
  );
}

import PDFDocument from 'pdfkit';
import type { InvoiceRecord } from '../db/invoice.repository.js';
import { EU_VAT } from './eu-vat.js';

/*
 * The invoice as a PDF (pdfkit). Its standard Helvetica speaks WinAnsi: Latin-1 plus € and the typographic
 * quotes and dashes, which covers English and French, Ferry's invoice languages. Text outside it (a buyer's name in
 * another script) is reduced to its Latin letters where it has some (Łódź → Lodz), "?" otherwise.
 */

type Texts = {
  /** ': ', or ' : ' in French. */
  colon: string;
  invoice: string;
  number: string;
  issued: string;
  due: string;
  paidOn: string;
  voided: string;
  seller: string;
  buyer: string;
  vatId: string;
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  subtotal: string;
  vat: (rate: string) => string;
  reverseCharge: string;
  noVat: string;
  total: string;
  amountDue: string;
  payBy: string;
  reference: string;
  vatCheck: string;
  checks: { none: string; format: string; vies: string; viesDown: string };
  paidWith: string;
};

const TEXTS: Record<'en' | 'fr', Texts> = {
  en: {
    colon: ': ',
    invoice: 'Invoice',
    number: 'Invoice number',
    issued: 'Date of issue',
    due: 'Due date',
    paidOn: 'Paid on',
    voided: 'VOID',
    seller: 'Seller',
    buyer: 'Bill to',
    vatId: 'VAT number',
    description: 'Description',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    amount: 'Amount',
    subtotal: 'Subtotal (VAT excluded)',
    vat: (rate) => `VAT ${rate} %`,
    reverseCharge: 'Reverse charge — article 196 of Council Directive 2006/112/EC',
    noVat: 'VAT not applicable (buyer outside the EU)',
    total: 'Total',
    amountDue: 'Amount due',
    payBy: 'Please pay by bank transfer to:',
    reference: 'Reference to give with the transfer',
    vatCheck: "Buyer's VAT number checked",
    checks: {
      none: 'no VAT number given',
      format: 'by its format',
      vies: 'online against VIES',
      viesDown: 'by its format (VIES was unavailable)',
    },
    paidWith: 'Payment method',
  },
  fr: {
    colon: '\u00a0: ',
    invoice: 'Facture',
    number: 'Numéro de facture',
    issued: "Date d'émission",
    due: "Date d'échéance",
    paidOn: 'Payée le',
    voided: 'ANNULÉE',
    seller: 'Vendeur',
    buyer: 'Facturé à',
    vatId: 'Numéro de TVA',
    description: 'Désignation',
    quantity: 'Qté',
    unitPrice: 'Prix unitaire',
    amount: 'Montant',
    subtotal: 'Total HT',
    vat: (rate) => `TVA ${rate} %`,
    reverseCharge: 'Autoliquidation — article 196 de la directive 2006/112/CE du Conseil',
    noVat: "TVA non applicable (acheteur hors de l'UE)",
    total: 'Total TTC',
    amountDue: 'Montant dû',
    payBy: 'Merci de régler par virement bancaire\u00a0:',
    reference: 'Référence à indiquer avec le virement',
    vatCheck: "Numéro de TVA de l'acheteur vérifié",
    checks: {
      none: 'aucun numéro de TVA donné',
      format: 'par son format',
      vies: 'en ligne auprès de VIES',
      viesDown: 'par son format (VIES était indisponible)',
    },
    paidWith: 'Moyen de paiement',
  },
};

const PROVIDERS: Record<string, Record<'en' | 'fr', string>> = {
  MANUAL: { en: 'bank transfer', fr: 'virement bancaire' },
  STRIPE: { en: 'card (Stripe)', fr: 'carte (Stripe)' },
  PAYPAL: { en: 'PayPal', fr: 'PayPal' },
};

/** The invoice's language: French for a French-speaking buyer, English otherwise. */
export function invoiceLanguage(locale: string | null): 'en' | 'fr' {
  return locale?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

// WinAnsi beyond Latin-1 (the 0x80–0x9F block of Windows-1252).
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can draw: Windows-1252 kept, other letters without their marks, "?" otherwise. */
export function winAnsi(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || code === 0x0a) out += char;
    else if (WIN_ANSI_EXTRA.has(char)) out += char;
    else {
      const plain = char
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[\u2000-\u200a\u202f]/g, ' ');
      const special: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i' };
      const mapped = special[char] ?? plain;
      out += [...mapped].every((c) => {
        const n = c.codePointAt(0) ?? 0;
        return (n >= 0x20 && n <= 0x7e) || (n >= 0xa0 && n <= 0xff) || WIN_ANSI_EXTRA.has(c);
      })
        ? mapped
        : '?';
    }
  }
  return out;
}

const A4_WIDTH = 595.28;
const MARGIN = 50;
const WIDTH = A4_WIDTH - 2 * MARGIN;

export interface InvoicePdfOptions {
  productName: string;
}

/** Renders an invoice in its buyer's language (en, fr; English otherwise). */
export async function renderInvoicePdf(invoice: InvoiceRecord, options: InvoicePdfOptions): Promise<Buffer> {
  const lang = invoiceLanguage(invoice.locale);
  const t = TEXTS[lang];
  const locale = lang === 'fr' ? 'fr-FR' : 'en-GB';
  const money = (minor: number) =>
    new Intl.NumberFormat(locale, { style: 'currency', currency: invoice.currency }).format(minor / 100);
  const date = (d: Date) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(d);
  const countries = new Intl.DisplayNames([locale], { type: 'region' });
  const countryName = (code: unknown) => {
    if (typeof code !== 'string' || !code) return null;
    try {
      return countries.of(code) ?? code;
    } catch {
      return code;
    }
  };
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  const seller = invoice.seller;
  const buyer = invoice.buyer;

  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `${t.invoice} ${invoice.number}`,
      Author: str(seller.name) ?? options.productName,
      Creator: options.productName,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = (value: string, x?: number, y?: number, opts?: PDFKit.Mixins.TextOptions) =>
    doc.text(winAnsi(value), x, y, opts);

  // Title and the invoice's facts.
  doc.font('Helvetica-Bold').fontSize(22);
  text(t.invoice, MARGIN, MARGIN);
  if (invoice.status === 'void') {
    doc.fillColor('#b00020');
    text(t.voided, MARGIN, MARGIN, { width: WIDTH, align: 'right' });
    doc.fillColor('black');
  }
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  const facts: [string, string][] = [
    [t.number, invoice.number],
    [t.issued, date(invoice.issuedAt)],
  ];
  if (invoice.dueAt && invoice.status === 'open') facts.push([t.due, date(invoice.dueAt)]);
  if (invoice.paidAt) facts.push([t.paidOn, date(invoice.paidAt)]);
  facts.push([t.paidWith, PROVIDERS[invoice.provider]?.[lang] ?? invoice.provider]);
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('Helvetica-Bold');
    text(label, MARGIN, y, { width: 150 });
    doc.font('Helvetica');
    text(value, MARGIN + 150, y, { width: WIDTH - 150 });
  }

  // Seller and buyer side by side.
  const partiesTop = doc.y + 20;
  const column = (title: string, lines: (string | null)[], x: number) => {
    doc.font('Helvetica-Bold').fontSize(11);
    text(title, x, partiesTop, { width: WIDTH / 2 - 10 });
    doc.font('Helvetica').fontSize(10);
    for (const line of lines) if (line) text(line, x, undefined, { width: WIDTH / 2 - 10 });
    return doc.y;
  };
  const sellerEnd = column(
    t.seller,
    [
      str(seller.name) ?? options.productName,
      str(seller.address)?.replace(/\\n/g, '\n') ?? null,
      countryName(seller.country),
      str(seller.vatId) && `${t.vatId}${t.colon}${seller.vatId}`,
      str(seller.email),
    ],
    MARGIN,
  );
  const company = str(buyer.companyName);
  const buyerEnd = column(
    t.buyer,
    [
      company,
      str(buyer.name),
      str(buyer.address),
      countryName(buyer.countryCode ?? invoice.countryCode),
      invoice.vatNumber && `${t.vatId}${t.colon}${invoice.vatNumber}`,
      str(buyer.email),
    ],
    MARGIN + WIDTH / 2 + 10,
  );

  // Lines.
  const cols = { description: MARGIN, quantity: MARGIN + 270, unit: MARGIN + 310, amount: MARGIN + 400 };
  let y = Math.max(sellerEnd, buyerEnd) + 25;
  doc.font('Helvetica-Bold');
  text(t.description, cols.description, y, { width: 260 });
  text(t.quantity, cols.quantity, y, { width: 35, align: 'right' });
  text(t.unitPrice, cols.unit, y, { width: 85, align: 'right' });
  text(t.amount, cols.amount, y, { width: WIDTH - 400, align: 'right' });
  y = doc.y + 4;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + WIDTH, y)
    .stroke();
  doc.font('Helvetica');
  y += 6;
  for (const line of invoice.lines) {
    text(line.description, cols.description, y, { width: 260 });
    const after = doc.y;
    text(String(line.quantity), cols.quantity, y, { width: 35, align: 'right' });
    text(money(line.unitAmount), cols.unit, y, { width: 85, align: 'right' });
    text(money(line.amount), cols.amount, y, { width: WIDTH - 400, align: 'right' });
    y = Math.max(after, doc.y) + 4;
  }
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + WIDTH, y)
    .stroke();
  y += 8;

  // Totals.
  const total = (label: string, value: string, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    text(label, MARGIN, y, { width: 390, align: 'right' });
    const labelEnd = doc.y;
    text(value, cols.amount, y, { width: WIDTH - 400, align: 'right' });
    y = Math.max(labelEnd, doc.y) + 4;
  };
  const rate = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(invoice.taxRate);
  total(t.subtotal, money(invoice.subtotal));
  if (invoice.reverseCharge) total(t.reverseCharge, money(0));
  else if (invoice.taxRate === 0 && invoice.vatCheck === 'none' && !isEu(invoice.countryCode))
    total(t.noVat, money(0));
  else total(t.vat(rate), money(invoice.tax));
  total(t.total, money(invoice.total), true);
  total(t.amountDue, money(invoice.amountDue), true);

  // How the buyer's VAT number was checked, and where to pay.
  y += 12;
  doc.font('Helvetica').fontSize(9);
  const check = invoice.viesUnavailable
    ? t.checks.viesDown
    : t.checks[invoice.vatCheck === 'vies' ? 'vies' : invoice.vatCheck === 'format' ? 'format' : 'none'];
  text(`${t.vatCheck}${t.colon}${check}`, MARGIN, y, { width: WIDTH });
  const bank = str(seller.bankDetails);
  if (invoice.provider === 'MANUAL' && invoice.status === 'open' && bank) {
    doc.moveDown(1).fontSize(10).font('Helvetica-Bold');
    text(t.payBy, MARGIN, undefined, { width: WIDTH });
    doc.font('Helvetica');
    text(bank, MARGIN, undefined, { width: WIDTH });
    text(`${t.reference}${t.colon}${invoice.number}`, MARGIN, undefined, { width: WIDTH });
  }
  doc.end();
  return finished;
}

const isEu = (country: string) => country in EU_VAT;

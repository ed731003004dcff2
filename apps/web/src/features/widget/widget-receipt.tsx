import { type ReceiveReceipt, truncateFileName } from '@ferry/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon } from '../../components/icons';
import { formatDateTime, formatSize } from '../../lib/format';

/** What the visitor sees once their files arrived: what was received, when, and where the receipt went. */
export function WidgetReceipt({ receipt, onAgain }: { receipt: ReceiveReceipt; onAgain: () => void }) {
  const { t, i18n } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // The form is gone: focus moves to the news.
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section className="widget-receipt" aria-labelledby="widget-receipt-title" data-testid="widget-receipt">
      <p className="done-badge" aria-hidden="true">
        <CheckIcon width={28} height={28} />
      </p>
      <h2 id="widget-receipt-title" ref={heading} tabIndex={-1} className="widget-receipt-title">
        {t('uploader:widget.receipt_title')}
      </h2>
      <p data-testid="widget-receipt-summary">
        {t('uploader:widget.receipt_text', {
          count: receipt.files.length,
          size: formatSize(receipt.totalSize, i18n.language),
        })}
      </p>
      {receipt.receivedAt && (
        <p className="muted">
          {t('uploader:widget.receipt_at', { date: formatDateTime(receipt.receivedAt, i18n.language) })}
        </p>
      )}
      <ul className="file-list widget-receipt-files" aria-label={t('uploader:selected_files')}>
        {receipt.files.map((file) => (
          <li key={file.id} className="file-row" data-testid="widget-receipt-file">
            <span className="file-row-name" title={file.relativePath ?? file.name}>
              {truncateFileName(file.name)}
            </span>
            <span className="file-row-size">{formatSize(file.size, i18n.language)}</span>
          </li>
        ))}
      </ul>
      {receipt.receiptSentTo && (
        <p className="muted" data-testid="widget-receipt-mail">
          {t('uploader:widget.receipt_mailed', { email: receipt.receiptSentTo })}
        </p>
      )}
      <button type="button" className="button button-secondary" onClick={onAgain} data-testid="widget-again">
        {t('uploader:widget.send_more')}
      </button>
    </section>
  );
}

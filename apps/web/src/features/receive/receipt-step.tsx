import { type ReceiveReceipt, truncateFileName } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { CheckIcon, MailIcon } from '../../components/icons';
import { formatDateTime, formatSize } from '../../lib/format';

/**
 * The uploader's receipt (step 4): who received the files, when, and each file with its SHA-256 as the
 * server computed it — what the uploader can check their copies against. No download link: the files are the
 * recipient's. "Send more" starts again (spec §4 reset).
 */
export function ReceiptStep({ receipt, onSendMore }: { receipt: ReceiveReceipt; onSendMore: () => void }) {
  const { t, i18n } = useTranslation();
  const to = receipt.ownerName ?? receipt.title;
  return (
    <section className="done-step receipt-step" aria-labelledby="receipt-title" data-testid="receipt">
      <div className="done-badge" aria-hidden="true">
        <CheckIcon width={32} height={32} />
      </div>
      <h2 id="receipt-title" className="panel-title" data-testid="receipt-title">
        {to ? t('uploader:receive.receipt_title_to', { name: to }) : t('uploader:receive.receipt_title')}
      </h2>
      <p className="muted" data-testid="receipt-facts">
        {t('uploader:receive.receipt_facts', {
          count: receipt.files.length,
          size: formatSize(receipt.totalSize, i18n.language),
          date: receipt.receivedAt ? formatDateTime(receipt.receivedAt, i18n.language) : '',
        })}
      </p>
      <ul className="receipt-files" aria-label={t('uploader:receive.receipt_files')}>
        {receipt.files.map((f) => (
          <li key={f.id} className="receipt-file" data-testid="receipt-file" data-name={f.name}>
            <p className="receipt-file-name">
              <strong title={f.relativePath ?? f.name}>{truncateFileName(f.name)}</strong>{' '}
              <span className="muted">{formatSize(f.size, i18n.language)}</span>
            </p>
            {f.sha256 && (
              <p className="receipt-file-sha">
                <span className="muted">{t('account:transfer.sha256')} </span>
                <code className="sha256" data-testid="receipt-sha">
                  {f.sha256}
                </code>
              </p>
            )}
          </li>
        ))}
      </ul>
      {receipt.receiptSentTo && (
        <p className="notice" data-testid="receipt-mailed">
          <MailIcon /> {t('uploader:receive.receipt_mailed', { email: receipt.receiptSentTo })}
        </p>
      )}
      <div className="panel-actions">
        <button type="button" className="button button-primary" data-testid="send-more" onClick={onSendMore}>
          {t('uploader:receive.send_more')}
        </button>
      </div>
    </section>
  );
}

import type { RecipientDetail, TransferDetail } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { addRecipients, removeRecipient } from '../../../lib/dashboard-api';
import { formatDateTime, formatSize } from '../../../lib/format';
import { ConfirmButton } from './confirm-button';
import { useTransferAction } from './use-transfer-action';
import { ValueForm } from './value-form';

/** Addresses as people paste them: separated by commas, semicolons, spaces or new lines. */
export function splitEmails(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

function Timeline({ recipient }: { recipient: RecipientDetail }) {
  const { t, i18n } = useTranslation();
  return (
    <ol className="transfer-list-plain" data-testid="recipient-timeline">
      {recipient.timeline.map((entry, index) => (
        // The timeline is append-only and oldest first: its index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <li key={index} data-kind={entry.kind}>
          {t(`account:transfer.timeline_${entry.kind}`, {
            bytes: formatSize(entry.bytes ?? 0, i18n.language),
            count: entry.fileIds?.length ?? 0,
          })}
          {entry.kind === 'downloaded' && entry.archive ? ` ${t('account:transfer.timeline_archive')}` : ''}
          {' · '}
          <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language)}</time>
        </li>
      ))}
      {recipient.error && <li className="field-error">{recipient.error}</li>}
    </ol>
  );
}

export function TransferRecipients({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation();
  const id = transfer.transferId;
  const add = useTransferAction(id, 'recipients_added');
  const remove = useTransferAction(id, 'recipient_removed');
  const open = transfer.status !== 'DELETED' && transfer.status !== 'RETAINED' && !transfer.expired;
  if (transfer.type !== 'S1') return null;
  return (
    <section className="panel dashboard-card transfer-section" aria-labelledby="transfer-recipients-title">
      <h2 id="transfer-recipients-title" className="section-title">
        {t('account:transfer.recipients_title', { count: transfer.recipients.length })}
      </h2>
      <ul className="transfer-list-plain">
        {transfer.recipients.map((recipient) => (
          <li key={recipient.email} data-testid="transfer-recipient">
            {/* a div: the removal's confirmation is a fieldset, which a paragraph cannot hold */}
            <div className="transfer-card-title">
              <strong data-testid="recipient-email">{recipient.email}</strong>
              {open && (
                <ConfirmButton
                  label={t('account:transfer.recipient_remove')}
                  question={t('account:transfer.recipient_remove_confirm', { email: recipient.email })}
                  testId="recipient-remove"
                  disabled={remove.pending}
                  onConfirm={() => remove.run(() => removeRecipient(id, recipient.email))}
                />
              )}
            </div>
            <Timeline recipient={recipient} />
          </li>
        ))}
      </ul>
      {remove.error && (
        <p className="field-error" role="alert" data-testid="recipient-remove-error">
          {remove.error}
        </p>
      )}
      {open && (
        <ValueForm
          label={t('account:transfer.recipients_add_label')}
          submit={t('account:transfer.recipients_add')}
          initial=""
          required
          resetOnDone
          testId="recipients-add-form"
          action={add}
          onSubmit={(text, done) => add.run(() => addRecipients(id, splitEmails(text)), done)}
        />
      )}
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import { CheckIcon, ClockIcon, MailIcon, UploadIcon } from '../../components/icons';
import { formatPercent } from '../../lib/format';
import type { PendingVerification } from './resume-store';

/** Where an e-mail transfer stands before its done step: what the page says first. */
export type SendState = 'uploading' | 'waiting_code' | 'sending';

export function sendStateOf(uploadDone: boolean, verification: PendingVerification['state']): SendState {
  if (!uploadDone) return 'uploading';
  return verification === 'pending' ? 'waiting_code' : 'sending';
}

interface SendStatusProps {
  uploadDone: boolean;
  uploadPercent: number;
  verification: PendingVerification;
}

/**
 * The two things an e-mail transfer waits for, side by side: the upload and the sender's code (either
 * order). The headline says which one it waits for now; the list shows both.
 */
export function SendStatus({ uploadDone, uploadPercent, verification }: SendStatusProps) {
  const { t, i18n } = useTranslation();
  const state = sendStateOf(uploadDone, verification.state);
  const s1 = verification.type === 'S1';
  const count = verification.recipients.length;
  const codeNeeded = verification.state !== 'not_needed';
  const codeDone = verification.state === 'verified';
  return (
    <section className="send-status" aria-labelledby="send-status-title">
      <h2
        id="send-status-title"
        className="panel-title"
        data-testid="send-status"
        data-state={state}
        aria-live="polite"
      >
        {t(`uploader:send_state_${state}`)}
      </h2>
      <ol className="send-checklist">
        <li className={uploadDone ? 'is-done' : 'is-active'}>
          <span className="send-check" aria-hidden="true">
            {uploadDone ? <CheckIcon width={16} height={16} /> : <UploadIcon width={16} height={16} />}
          </span>
          <span>
            {uploadDone
              ? t('uploader:send_upload_done')
              : t('uploader:send_upload_active', { percent: formatPercent(uploadPercent, i18n.language) })}
          </span>
        </li>
        {codeNeeded && (
          <li className={codeDone ? 'is-done' : 'is-waiting'} data-testid="send-status-code">
            <span className="send-check" aria-hidden="true">
              {codeDone ? <CheckIcon width={16} height={16} /> : <ClockIcon width={16} height={16} />}
            </span>
            <span>
              {codeDone
                ? t('uploader:send_code_done')
                : t('uploader:send_code_waiting', { email: verification.senderEmail })}
            </span>
          </li>
        )}
        <li className="is-todo">
          <span className="send-check" aria-hidden="true">
            <MailIcon width={16} height={16} />
          </span>
          <span>{s1 ? t('uploader:send_then_mail', { count }) : t('uploader:send_then_link')}</span>
        </li>
      </ol>
    </section>
  );
}

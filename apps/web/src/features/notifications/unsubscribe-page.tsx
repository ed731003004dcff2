import type { UnsubscribeResponse } from '@ferry/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AlertIcon, CheckIcon, MailIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { unsubscribe } from '../../lib/transfer-api';

type Outcome =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'done'; result: UnsubscribeResponse }
  | { kind: 'invalid' }
  | { kind: 'failed'; error: unknown };

/** The link's token is unknown, or the transfer it belongs to is gone. */
function isInvalidLink(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.hasCode('TRANSFER_NOT_FOUND') ||
      error.hasCode('NOT_FOUND') ||
      error.hasCode('VALIDATION_FAILED') ||
      error.status === 404)
  );
}

/**
 * `/unsubscribe?token=…`, the "Turn off these e-mails" link of notification mails. It says what will stop and
 * acts only on the button: mail scanners open links (GET) on their own, and must not turn anything off.
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const [search] = useSearchParams();
  const token = search.get('token')?.trim() ?? '';
  const [outcome, setOutcome] = useState<Outcome>(token ? { kind: 'idle' } : { kind: 'invalid' });

  const confirm = async () => {
    setOutcome({ kind: 'busy' });
    try {
      setOutcome({ kind: 'done', result: await unsubscribe(token) });
    } catch (error) {
      setOutcome(isInvalidLink(error) ? { kind: 'invalid' } : { kind: 'failed', error });
    }
  };

  let body: ReactNode;
  if (outcome.kind === 'done') {
    const { kind, transferName } = outcome.result;
    const key = kind === 'downloadConfirmation' ? 'download_confirmation' : 'expiry_reminder';
    body = (
      <>
        <div className="message-icon is-success" aria-hidden="true">
          <CheckIcon width={40} height={40} />
        </div>
        <h1 className="panel-title">{t('notifications:unsubscribe_done_title')}</h1>
        <p className="muted" data-testid="unsubscribe-result" data-kind={kind}>
          {transferName
            ? t(`notifications:unsubscribe_done_${key}_named`, { name: transferName })
            : t(`notifications:unsubscribe_done_${key}`)}
        </p>
      </>
    );
  } else if (outcome.kind === 'invalid') {
    body = (
      <>
        <div className="message-icon" aria-hidden="true">
          <AlertIcon width={40} height={40} />
        </div>
        <h1 className="panel-title">{t('notifications:unsubscribe_invalid_title')}</h1>
        <p className="muted" role="alert" data-testid="unsubscribe-error">
          {t('notifications:unsubscribe_invalid_text')}
        </p>
      </>
    );
  } else {
    const busy = outcome.kind === 'busy';
    body = (
      <>
        <div className="message-icon" aria-hidden="true">
          <MailIcon width={40} height={40} />
        </div>
        <h1 className="panel-title">{t('notifications:unsubscribe_title')}</h1>
        <p className="muted">{t('notifications:unsubscribe_text')}</p>
        <ul className="unsubscribe-list">
          <li>{t('notifications:unsubscribe_what_confirmation')}</li>
          <li>{t('notifications:unsubscribe_what_reminder')}</li>
        </ul>
        <p className="field-hint">{t('notifications:unsubscribe_scope')}</p>
        {outcome.kind === 'failed' && (
          <p className="notice notice-error" role="alert" data-testid="unsubscribe-error">
            <AlertIcon /> {describe(outcome.error)}
          </p>
        )}
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => void confirm()}
          data-testid="unsubscribe-confirm"
        >
          {t(busy ? 'notifications:unsubscribe_busy' : 'notifications:unsubscribe_button')}
        </button>
      </>
    );
  }

  return (
    <div className="page-center" data-testid="page-unsubscribe">
      <title>{t('notifications:unsubscribe_page_title', { product: PRODUCT_NAME })}</title>
      <div className="panel message-panel unsubscribe-panel">
        {body}
        {outcome.kind !== 'idle' && outcome.kind !== 'busy' && (
          <Link to="/" className="button button-secondary">
            {t('common:go_home', { product: PRODUCT_NAME })}
          </Link>
        )}
      </div>
    </div>
  );
}

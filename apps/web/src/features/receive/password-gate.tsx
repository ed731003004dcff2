import type { ReceiveTarget } from '@ferry/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LockIcon } from '../../components/icons';
import { PasswordInput } from '../../components/password-input';
import { checkReceivePassword } from '../../lib/receive-api';
import { usePasswordCheck } from '../downloader/password-form';

/**
 * Asks for the password of a protected receive point before anything else (POST /receive/check-password):
 * 200 opens the page; 429 says to wait (with the server's delay); any other answer is a wrong password (spec
 * §5, §8 — the same rule as the download page's).
 */
export function PasswordGate({
  target,
  ownerName,
  onUnlocked,
  wrongBefore = false,
}: {
  target: ReceiveTarget;
  ownerName: string | null;
  onUnlocked: (password: string) => void;
  /** The upload itself was refused for its password (it changed meanwhile): say so at once. */
  wrongBefore?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { password, setPassword, busy, locked, error, errorText, submit } = usePasswordCheck(
    (typed) => checkReceivePassword(target, typed),
    onUnlocked,
    wrongBefore ? { key: 'downloader:wrong_password' } : null,
  );

  return (
    <form
      className="password-form"
      onSubmit={(event) => void submit(event)}
      data-testid="receive-password-gate"
    >
      <div className="lock-badge" aria-hidden="true">
        <LockIcon width={28} height={28} />
      </div>
      <h2 className="panel-title">{t('uploader:receive.password_title')}</h2>
      <p className="muted">
        {ownerName
          ? t('uploader:receive.password_text_named', { name: ownerName })
          : t('uploader:receive.password_text')}
      </p>
      <label htmlFor={id} className="field-label">
        {t('downloader:password_label')}
      </label>
      <PasswordInput
        id={id}
        value={password}
        onValueChange={setPassword}
        autoComplete="off"
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        testId="receive-password"
      />
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert" data-testid="receive-password-error">
          {errorText}
        </p>
      )}
      <button
        type="submit"
        className="button button-primary button-block"
        disabled={busy || locked || password === ''}
        data-testid="receive-password-submit"
      >
        {t('downloader:unlock')}
      </button>
    </form>
  );
}

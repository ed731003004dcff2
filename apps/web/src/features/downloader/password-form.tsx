import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon, LockIcon } from '../../components/icons';
import { useCountdown } from '../../hooks/use-countdown';
import { ApiError, NetworkError } from '../../lib/api';
import { formatWait } from '../../lib/format';
import { checkDownloadPassword } from '../../lib/transfer-api';

export interface PasswordProblem {
  key: string;
  /** 429 with Retry-After: how long the password is locked. */
  waitSeconds?: number;
}

/**
 * The message for a failed password check (spec §8): 429 is "too many attempts, wait"; any other answer
 * that is not 200 means a wrong password.
 */
export function passwordErrorKey(error: unknown): PasswordProblem {
  if (error instanceof NetworkError) return { key: 'errors:network' };
  if (error instanceof ApiError && error.status === 429) {
    return error.retryAfterSeconds === null
      ? { key: 'downloader:password_rate_limited' }
      : { key: 'downloader:password_rate_limited_wait', waitSeconds: error.retryAfterSeconds };
  }
  return { key: 'downloader:wrong_password' };
}

/**
 * The state of a password form: `submit` checks the typed password with the server (one check at a time) and
 * hands it to `onUnlocked` when accepted; a refusal becomes a message (`errorText`). After a 429 the form is
 * `locked` until Retry-After has passed (the button is disabled, the wait said as "about 15 minutes"), then
 * says the password may be tried again.
 */
export function usePasswordCheck(
  check: (password: string) => Promise<unknown>,
  onUnlocked: (password: string) => void,
  initialError: PasswordProblem | null = null,
) {
  const { t, i18n } = useTranslation();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PasswordProblem | null>(initialError);
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const waitSeconds = useCountdown(lockedUntil);
  const locked = waitSeconds > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password === '' || busy || locked) return;
    setBusy(true);
    setError(null);
    setLockedUntil(null);
    try {
      await check(password);
      onUnlocked(password);
    } catch (failure) {
      const problem = passwordErrorKey(failure);
      setError(problem);
      if (problem.waitSeconds !== undefined) setLockedUntil(Date.now() + problem.waitSeconds * 1000);
    } finally {
      setBusy(false);
    }
  };

  const errorText = !error
    ? null
    : error.waitSeconds === undefined
      ? t(error.key)
      : locked
        ? t(error.key, { time: formatWait(waitSeconds, i18n.language) })
        : t('downloader:password_rate_limited_over');
  return { password, setPassword, busy, locked, error, errorText, submit };
}

/** Asks for the transfer's password; on success hands it to the page, which then lists the files. */
export function PasswordForm({
  transferId,
  userSecret,
  onUnlocked,
}: {
  transferId: string;
  /** The personal link's secret (S1), which the check needs as info and link do. */
  userSecret?: string;
  onUnlocked: (password: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { password, setPassword, busy, locked, error, errorText, submit } = usePasswordCheck(
    (typed) => checkDownloadPassword(transferId, typed, userSecret),
    onUnlocked,
  );
  const [visible, setVisible] = useState(false);

  return (
    <form className="password-form" onSubmit={(event) => void submit(event)}>
      <div className="lock-badge" aria-hidden="true">
        <LockIcon width={28} height={28} />
      </div>
      <h1 className="panel-title">{t('downloader:password_title')}</h1>
      <p className="muted">{t('downloader:password_text')}</p>
      <label htmlFor={id} className="field-label">
        {t('downloader:password_label')}
      </label>
      <div className="input-with-button">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          value={password}
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the password is the only thing to do on this screen
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="password-input"
        />
        <button
          type="button"
          className="icon-button"
          aria-pressed={visible}
          aria-label={t(visible ? 'common:hide_password' : 'common:show_password')}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert" data-testid="password-error">
          {errorText}
        </p>
      )}
      <button
        type="submit"
        className="button button-primary button-block"
        disabled={busy || locked || password === ''}
        data-testid="password-submit"
      >
        {t('downloader:unlock')}
      </button>
    </form>
  );
}

import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MailIcon } from '../../components/icons';
import { ApiError } from '../../lib/api';
import { readJson, removeKey, writeJson } from '../../lib/storage';
import { isEmail } from '../uploader/recipients';

/** The downloader's e-mail, remembered for the visit (the tab's session), never beyond. */
export const DOWNLOADER_EMAIL_KEY = 'ferry.downloaderEmail';

function sessionStore() {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

export function loadDownloaderEmail(): string | null {
  const value = readJson(DOWNLOADER_EMAIL_KEY, sessionStore());
  return typeof value === 'string' && isEmail(value) ? value : null;
}

export function saveDownloaderEmail(email: string | null): void {
  if (email === null) removeKey(DOWNLOADER_EMAIL_KEY, sessionStore());
  else writeJson(DOWNLOADER_EMAIL_KEY, email, sessionStore());
}

/** The link call was refused because the transfer wants the downloader's e-mail first. */
export function needsDownloaderEmail(error: unknown): boolean {
  return error instanceof ApiError && error.hasCode('DOWNLOADER_EMAIL_REQUIRED');
}

/**
 * The sender asked for the e-mail of whoever downloads (S2 `forceEmailWhenDownloadS2`): one field, checked
 * here before it goes with every download.
 */
export function DownloaderEmailForm({
  initial,
  refused,
  onSubmit,
}: {
  initial: string;
  /** The server refused the downloads without an e-mail (it was missing or no longer accepted). */
  refused: boolean;
  onSubmit: (email: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState(initial);
  const [invalid, setInvalid] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!isEmail(value)) {
      setInvalid(true);
      input.current?.focus();
      return;
    }
    setInvalid(false);
    onSubmit(value);
  };

  const error = invalid ? t('downloader:email_invalid') : refused ? t('downloader:email_refused') : null;
  return (
    <form className="email-gate" onSubmit={submit} noValidate data-testid="downloader-email-form">
      <div className="email-gate-head">
        <span className="verify-icon" aria-hidden="true">
          <MailIcon />
        </span>
        <div>
          <h2 className="email-gate-title">{t('downloader:email_title')}</h2>
          <p className="muted">{t('downloader:email_text')}</p>
        </div>
      </div>
      <label htmlFor={id} className="field-label">
        {t('downloader:email_label')}
      </label>
      <div className="input-with-button">
        <input
          ref={input}
          id={id}
          type="email"
          autoComplete="email"
          inputMode="email"
          maxLength={320}
          value={email}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setEmail(event.target.value)}
          data-testid="downloader-email"
        />
        <button type="submit" className="button button-primary" data-testid="downloader-email-submit">
          {t('downloader:email_submit')}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid="downloader-email-error">
          {error}
        </p>
      )}
      <p className="field-hint">{t('downloader:email_hint')}</p>
    </form>
  );
}

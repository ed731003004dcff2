import type { SenderVerificationResponse, TransferSummary } from '@ferry/core';
import { type ClipboardEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MailIcon } from '../../components/icons';
import { useCountdown } from '../../hooks/use-countdown';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { formatDuration } from '../../lib/format';
import { getUploadState, resendSenderCode, verifySender } from '../../lib/transfer-api';

export const CODE_LENGTH = 6;

/** The digits of what was typed or pasted ("123 456", "Code: 123456"), at most six. */
export function codeDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

/** Seconds to wait from a 429: the Retry-After header, else the body's `details.retryAfterSeconds`. */
export function retryAfterOf(error: unknown): number | null {
  if (!(error instanceof ApiError)) return null;
  if (error.retryAfterSeconds !== null) return error.retryAfterSeconds;
  const fromBody = error.details.retryAfterSeconds;
  return typeof fromBody === 'number' && Number.isFinite(fromBody) ? Math.max(0, Math.ceil(fromBody)) : null;
}

export type VerificationProblem =
  | 'wrong'
  | 'expired'
  | 'rate_limited'
  | 'incomplete'
  | 'not_pending'
  | { other: unknown };

/** What went wrong with a code, by the error codes of the contract. */
export function verificationProblemOf(error: unknown): VerificationProblem {
  if (error instanceof ApiError) {
    if (error.hasCode('WRONG_VERIFICATION_CODE')) return 'wrong';
    if (error.hasCode('VERIFICATION_CODE_EXPIRED')) return 'expired';
    if (error.hasCode('RATE_LIMITED') || error.status === 429) return 'rate_limited';
    if (error.hasCode('VALIDATION_FAILED')) return 'incomplete';
    if (error.hasCode('CONFLICT')) return 'not_pending';
  }
  return { other: error };
}

/** The result of a successful check: the transfer as it now stands and, when given, the proof to keep. */
export interface VerifiedResult {
  transfer: TransferSummary;
  proof: Pick<SenderVerificationResponse, 'senderVerificationToken' | 'expiresAt'> | null;
}

interface SenderVerificationProps {
  transferId: string;
  uploadToken: string;
  email: string;
  /** What the code unlocks: sending an e-mail transfer, or the e-mails to the sender of a link. */
  purpose: 'send' | 'notifications';
  /** Every file is uploaded: the code is all that is missing. */
  uploaded?: boolean;
  /** When another code may be asked for (ms since the epoch). */
  resendAvailableAt: number;
  onVerified: (result: VerifiedResult) => void;
  /** A new code was sent; the next one may be asked for after `retryAfterSeconds`. */
  onResent: (retryAfterSeconds: number) => void;
}

/**
 * "We sent a code to …": six digits (typed, pasted whole or filled in by the phone from the message),
 * checked as soon as they are all there, with a resend button that counts down while the server would
 * refuse. Never blocks the upload beside it.
 */
export function SenderVerification({
  transferId,
  uploadToken,
  email,
  purpose,
  uploaded = false,
  resendAvailableAt,
  onVerified,
  onResent,
}: SenderVerificationProps) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<VerificationProblem | null>(null);
  const [attemptsLeft, setAttemptsLeft] = useState<number | null>(null);
  const [blockedUntil, setBlockedUntil] = useState<number | null>(null);
  const [resending, setResending] = useState(false);
  const [resendNotice, setResendNotice] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);
  const [resendBlockedUntil, setResendBlockedUntil] = useState<number | null>(null);
  const blockedFor = useCountdown(blockedUntil);
  const resendIn = useCountdown(Math.max(resendAvailableAt, resendBlockedUntil ?? 0));
  const submitted = useRef('');

  const check = async (value: string) => {
    if (value.length !== CODE_LENGTH || checking) return;
    submitted.current = value;
    setChecking(true);
    setProblem(null);
    try {
      const response = await verifySender(transferId, uploadToken, value);
      onVerified({
        transfer: response.transfer,
        proof: { senderVerificationToken: response.senderVerificationToken, expiresAt: response.expiresAt },
      });
    } catch (error) {
      const found = verificationProblemOf(error);
      if (found === 'not_pending') {
        // Nothing to verify any more (done in another tab?): the transfer's own state says what happened.
        const state = await getUploadState(transferId, uploadToken).catch(() => null);
        if (state && state.senderVerification !== 'pending') {
          onVerified({ transfer: state, proof: null });
          return;
        }
      }
      const left = error instanceof ApiError ? error.details.attemptsLeft : undefined;
      setAttemptsLeft(typeof left === 'number' ? left : null);
      if (found === 'rate_limited') {
        const wait = retryAfterOf(error);
        setBlockedUntil(wait === null ? null : Date.now() + wait * 1000);
      }
      setProblem(found);
      if (found === 'wrong' || found === 'expired') setCode('');
      input.current?.focus();
    } finally {
      setChecking(false);
    }
  };

  const change = (value: string) => {
    const digits = codeDigits(value);
    setCode(digits);
    if (digits.length < CODE_LENGTH) submitted.current = '';
    else if (digits !== submitted.current && blockedFor === 0) void check(digits);
  };

  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!text) return;
    event.preventDefault();
    change(text);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      setProblem('incomplete');
      input.current?.focus();
      return;
    }
    void check(code);
  };

  const resend = async () => {
    setResending(true);
    setResendNotice(null);
    setResendError(null);
    try {
      const response = await resendSenderCode(transferId, uploadToken);
      onResent(response.retryAfterSeconds);
      setResendNotice(t('uploader:verify_resent', { email: response.sentTo }));
      if (problem === 'expired') setProblem(null);
      setCode('');
      input.current?.focus();
    } catch (error) {
      const wait = retryAfterOf(error);
      if (wait !== null) setResendBlockedUntil(Date.now() + wait * 1000);
      setResendError(
        wait !== null
          ? t('uploader:verify_resend_wait', { time: formatDuration(wait, i18n.language) })
          : describe(error),
      );
    } finally {
      setResending(false);
    }
  };

  // The wait is over: the message that asked for it no longer applies.
  useEffect(() => {
    if (blockedUntil !== null && blockedFor === 0 && Date.now() >= blockedUntil) {
      setBlockedUntil(null);
      setProblem((current) => (current === 'rate_limited' ? null : current));
    }
  }, [blockedFor, blockedUntil]);

  let problemText: string | null = null;
  if (problem === 'wrong')
    problemText =
      attemptsLeft === null
        ? t('uploader:verify_wrong')
        : `${t('uploader:verify_wrong')} ${t('uploader:verify_attempts_left', { count: attemptsLeft })}`;
  else if (problem === 'expired') problemText = t('uploader:verify_expired');
  else if (problem === 'incomplete') problemText = t('uploader:verify_incomplete');
  else if (problem === 'rate_limited')
    problemText =
      blockedFor > 0
        ? t('uploader:verify_rate_limited_wait', { time: formatDuration(blockedFor, i18n.language) })
        : t('uploader:verify_rate_limited');
  else if (problem === 'not_pending') problemText = t('errors:code.CONFLICT');
  else if (problem) problemText = describe(problem.other);

  return (
    <section className="verify" aria-labelledby={`${id}-title`} data-testid="verification">
      <div className="verify-head">
        <span className="verify-icon" aria-hidden="true">
          <MailIcon />
        </span>
        <h3 id={`${id}-title`} className="verify-title">
          {t('uploader:verify_title')}
        </h3>
      </div>
      <p className="verify-text" data-testid="verification-email">
        {t('uploader:verify_sent_to', { email })}{' '}
        {purpose === 'notifications'
          ? t('uploader:verify_why_notifications')
          : t(uploaded ? 'uploader:verify_why_send_uploaded' : 'uploader:verify_why_send')}
      </p>
      <form className="verify-form" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-code`} className="field-label">
          {t('uploader:verify_code_label')}
        </label>
        <div className="input-with-button">
          <input
            ref={input}
            id={`${id}-code`}
            className="code-input"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            spellCheck={false}
            placeholder="000000"
            value={code}
            readOnly={checking}
            aria-invalid={problem !== null && problem !== 'rate_limited' ? true : undefined}
            aria-describedby={`${id}-hint${problemText ? ` ${id}-error` : ''}`}
            onChange={(event) => change(event.target.value)}
            onPaste={paste}
            data-testid="verification-code"
          />
          <button
            type="submit"
            className="button button-primary"
            disabled={checking || blockedFor > 0}
            aria-busy={checking || undefined}
            data-testid="verification-submit"
          >
            {t(checking ? 'uploader:verify_checking' : 'uploader:verify_submit')}
          </button>
        </div>
        <p id={`${id}-hint`} className="field-hint">
          {t('uploader:verify_hint')}
        </p>
        {problemText && (
          <p id={`${id}-error`} className="field-error" role="alert" data-testid="verification-error">
            {problemText}
          </p>
        )}
      </form>
      <div className="verify-resend">
        <span className="muted">{t('uploader:verify_no_code')}</span>
        <button
          type="button"
          className="button button-small button-secondary"
          disabled={resending || resendIn > 0}
          aria-busy={resending || undefined}
          onClick={() => void resend()}
          data-testid="verification-resend"
        >
          {resendIn > 0
            ? t('uploader:verify_resend_in', { time: formatDuration(resendIn, i18n.language) })
            : t('uploader:verify_resend')}
        </button>
      </div>
      <p
        className={`verify-notice${resendError ? ' is-error' : ''}`}
        role="status"
        data-testid="verification-resend-status"
      >
        {resendError ?? resendNotice ?? ''}
      </p>
    </section>
  );
}

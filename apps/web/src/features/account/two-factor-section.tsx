import type { TotpSetupResponse } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CopyIcon } from '../../components/icons';
import { QrCode } from '../../components/qr-code';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import {
  disableTotp,
  enableTotp,
  getTotpStatus,
  regenerateRecoveryCodes,
  setupTotp,
} from '../../lib/auth-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { useToast } from '../toasts/toast-context';
import { copyText } from './clipboard';
import { RecoveryCodes } from './recovery-codes';
import { SecretForm } from './secret-form';

type Step =
  | { kind: 'idle' }
  | { kind: 'setup'; setup: TotpSetupResponse }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'regenerate' }
  | { kind: 'disable' };

/** Few enough recovery codes left to suggest new ones. */
export const FEW_RECOVERY_CODES = 3;

/** A base32 secret in groups of four, easier to type from the screen ("JBSW Y3DP EHPK 3PXP"). */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** The secret to type by hand, with a copy button. */
function ManualKey({ secret }: { secret: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const ok = await copyText(secret, input.current);
    setCopied(ok);
    toast.show(t(ok ? 'account:totp_key_copied' : 'account:codes_copy_failed'), ok ? 'success' : 'error');
  };
  return (
    <div className="field">
      <label htmlFor={id}>{t('account:totp_key_label')}</label>
      <div className="input-with-button">
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          className="mono"
          value={groupSecret(secret)}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="totp-secret"
        />
        <button
          type="button"
          className="button button-secondary"
          onClick={() => void copy()}
          data-testid="totp-secret-copy"
        >
          {copied ? <CheckIcon /> : <CopyIcon />}
          {t(copied ? 'account:codes_copied_short' : 'account:totp_key_copy')}
        </button>
      </div>
    </div>
  );
}

/**
 * "Two-factor authentication" on /account/security: off → set up (QR code of the otpauth URL and the key as
 * text) → confirm with a code → the recovery codes, shown once. On → how many recovery codes are left, new
 * ones (against a code), turn off (against the password).
 */
export function TwoFactorSection() {
  const { t } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const describe = useDescribeError();
  const queryClient = useQueryClient();
  const titleId = useId();
  const queryKey = [ACCOUNT_QUERY_KEY, auth.user?.uid ?? '', 'totp'];
  const status = useQuery({ queryKey, queryFn: getTotpStatus });
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [starting, setStarting] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const wasBusy = useRef(false);

  // Back from a step: focus returns to the section, not to the top of the page.
  useEffect(() => {
    if (step.kind === 'idle' && wasBusy.current) heading.current?.focus();
    wasBusy.current = step.kind !== 'idle';
  }, [step.kind]);

  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const failed = (error: unknown) => {
    toast.show(describe(error), 'error');
    if (error instanceof ApiError && error.status === 401) void auth.reload();
    // 409: it was turned on or off elsewhere meanwhile.
    if (error instanceof ApiError && error.status === 409) {
      setStep({ kind: 'idle' });
      void refresh();
    }
  };

  const startSetup = async () => {
    setStarting(true);
    try {
      setStep({ kind: 'setup', setup: await setupTotp() });
    } catch (error) {
      failed(error);
    } finally {
      setStarting(false);
    }
  };

  /** Errors of the code or password reach SecretForm; a 409 or 401 is handled here too. */
  const guarded = async (call: () => Promise<void>) => {
    try {
      await call();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 409 || error.hasCode('UNAUTHORIZED'))) {
        failed(error);
        return;
      }
      throw error;
    }
  };

  const data = status.data;
  return (
    <section className="account-section" aria-labelledby={titleId} data-testid="totp-section">
      <h2 className="section-title" id={titleId} ref={heading} tabIndex={-1}>
        {t('account:totp_title')}
      </h2>
      <p className="muted">{t('account:totp_intro')}</p>
      {status.isPending && (
        <p className="muted" role="status" aria-busy="true" data-testid="totp-loading">
          {t('account:loading')}
        </p>
      )}
      {status.error && (
        <div className="notice notice-error" role="alert" data-testid="totp-error">
          <p>{describe(status.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void status.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {data && step.kind === 'idle' && (
        <div className="totp-state" data-testid="totp-state" data-enabled={data.enabled}>
          <p>
            <span className={data.enabled ? 'badge badge-success' : 'badge'} data-testid="totp-status">
              {t(data.enabled ? 'account:totp_on' : 'account:totp_off')}
            </span>
          </p>
          {data.enabled && (
            <p
              className={data.recoveryCodesLeft <= FEW_RECOVERY_CODES ? 'notice notice-warn' : 'muted'}
              data-testid="totp-codes-left"
            >
              {t(
                data.recoveryCodesLeft <= FEW_RECOVERY_CODES
                  ? 'account:codes_left_few'
                  : 'account:codes_left',
                {
                  count: data.recoveryCodesLeft,
                },
              )}
            </p>
          )}
          <div className="auth-actions account-actions">
            {data.enabled ? (
              <>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => setStep({ kind: 'regenerate' })}
                  data-testid="totp-regenerate"
                >
                  {t('account:codes_regenerate')}
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => setStep({ kind: 'disable' })}
                  data-testid="totp-disable"
                >
                  {t('account:totp_disable')}
                </button>
              </>
            ) : (
              <button
                type="button"
                className="button button-primary"
                disabled={starting}
                aria-busy={starting || undefined}
                onClick={() => void startSetup()}
                data-testid="totp-setup"
              >
                {t('account:totp_setup')}
              </button>
            )}
          </div>
        </div>
      )}
      {step.kind === 'setup' && (
        <div className="totp-setup" data-testid="totp-setup-panel">
          <ol className="totp-steps">
            <li>
              <p>{t('account:totp_scan')}</p>
              <QrCode text={step.setup.otpauthUrl} label={t('account:totp_qr_label')} testId="totp-qr" />
            </li>
            <li>
              <p>{t('account:totp_manual')}</p>
              <ManualKey secret={step.setup.secret} />
            </li>
            <li>
              <SecretForm
                kind="code"
                label={t('account:totp_confirm_label')}
                hint={t('account:totp_confirm_hint')}
                submitLabel={t('account:totp_enable')}
                testId="totp-enable"
                onCancel={() => setStep({ kind: 'idle' })}
                onSubmit={(code) =>
                  guarded(async () => {
                    const { recoveryCodes } = await enableTotp(code);
                    toast.show(t('account:totp_enabled'), 'success');
                    setStep({ kind: 'codes', codes: recoveryCodes });
                    void refresh();
                  })
                }
              />
            </li>
          </ol>
        </div>
      )}
      {step.kind === 'codes' && <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />}
      {step.kind === 'regenerate' && (
        <SecretForm
          kind="code"
          label={t('account:totp_code_label')}
          hint={t('account:codes_regenerate_hint')}
          submitLabel={t('account:codes_regenerate')}
          testId="totp-regenerate-form"
          onCancel={() => setStep({ kind: 'idle' })}
          onSubmit={(code) =>
            guarded(async () => {
              const { recoveryCodes } = await regenerateRecoveryCodes(code);
              setStep({ kind: 'codes', codes: recoveryCodes });
              void refresh();
            })
          }
        />
      )}
      {step.kind === 'disable' && (
        <SecretForm
          kind="password"
          label={t('account:totp_disable_label')}
          hint={t('account:totp_disable_hint')}
          submitLabel={t('account:totp_disable')}
          danger
          testId="totp-disable-form"
          onCancel={() => setStep({ kind: 'idle' })}
          onSubmit={(password) =>
            guarded(async () => {
              await disableTotp(password);
              toast.show(t('account:totp_disabled'), 'success');
              setStep({ kind: 'idle' });
              await refresh();
            })
          }
        />
      )}
    </section>
  );
}

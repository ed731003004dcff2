import { IdTokenResponse, RecoveryCodesResponse, TotpSetupResponse } from '@ferry/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { QrCode } from '../../components/qr-code';
import { useDescribeError } from '../../hooks/use-describe-error';
import { apiRequest } from '../../lib/api';
import { RecoveryCodes } from '../account/recovery-codes';

const FinishResponse = RecoveryCodesResponse.merge(IdTokenResponse);

/**
 * The second factor a member's team requires, set up right after a password sign-in answered
 * SECOND_FACTOR_SETUP_REQUIRED: scan the secret, confirm a code, keep the recovery codes, then the session starts
 * (`onSignedIn` with the id token the set-up gives).
 */
export function RequiredSecondFactorSetup({
  setupToken,
  onSignedIn,
}: {
  setupToken: string;
  onSignedIn: (idToken: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ codes: string[]; idToken: string } | null>(null);
  useEffect(() => {
    let cancelled = false;
    apiRequest('/auth/second-factor-setup/start', {
      method: 'POST',
      body: { setupToken },
      schema: TotpSetupResponse,
    }).then(
      (answer) => !cancelled && setSetup(answer),
      (failure: unknown) => !cancelled && setError(failure),
    );
    return () => {
      cancelled = true;
    };
  }, [setupToken]);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(typed)) {
      setError(new Error(t('teamPolicies:setup.code_invalid')));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await apiRequest('/auth/second-factor-setup/finish', {
        method: 'POST',
        body: { setupToken, code: typed },
        schema: FinishResponse,
      });
      setDone({ codes: answer.recoveryCodes, idToken: answer.idToken });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  if (done)
    return (
      <div data-testid="required-2fa-codes">
        <RecoveryCodes codes={done.codes} onDone={() => void onSignedIn(done.idToken)} />
      </div>
    );
  return (
    <section className="totp-setup" aria-labelledby="required-2fa-title" data-testid="required-2fa">
      <h2 id="required-2fa-title">{t('teamPolicies:setup.title')}</h2>
      <p>{t('teamPolicies:setup.intro')}</p>
      {error !== null && (
        <p className="notice notice-error" role="alert" data-testid="required-2fa-error">
          {error instanceof Error && !('codes' in error) ? error.message : describe(error)}
        </p>
      )}
      {setup && (
        <form noValidate onSubmit={(event) => void onSubmit(event)}>
          <QrCode text={setup.otpauthUrl} label={t('teamPolicies:setup.qr_label')} testId="required-2fa-qr" />
          <p className="field-hint">
            {t('teamPolicies:setup.manual')} <code data-testid="required-2fa-secret">{setup.secret}</code>
          </p>
          <LabelledField label={t('teamPolicies:setup.code_label')}>
            {(props) => (
              <input
                {...props}
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                data-testid="required-2fa-code"
              />
            )}
          </LabelledField>
          <button
            type="submit"
            className="button button-primary"
            disabled={busy}
            data-testid="required-2fa-submit"
          >
            {t('teamPolicies:setup.submit')}
          </button>
        </form>
      )}
    </section>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { verifyEmail } from '../../lib/auth-api';
import { afterSignInPath } from '../billing/plan-labels';
import { useToast } from '../toasts/toast-context';
import { AuthCard } from './auth-card';
import { type SessionOutcome, useAuth } from './auth-context';
import { type AuthProblem, authProblem, refusalKey, safeNextPath } from './auth-errors';

/**
 * A verification link works once: the page's call must not run twice for the same token, which React's
 * StrictMode (mount, unmount, mount) would otherwise do. Both runs share one promise.
 */
const pending = new Map<string, Promise<SessionOutcome>>();

export function verifyOnce(token: string, run: () => Promise<SessionOutcome>): Promise<SessionOutcome> {
  let promise = pending.get(token);
  if (!promise) {
    promise = run();
    pending.set(token, promise);
    // A failed try (network) may be retried with the same link.
    promise.catch(() => pending.delete(token));
  }
  return promise;
}

type Outcome = { kind: 'verifying' } | { kind: 'failed'; problem: AuthProblem };

/** `/verify-email?token=…[&next=…]`: confirms the address, signs in, and goes to `next` or `/`. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const auth = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('token')?.trim() ?? '';
  const next = safeNextPath(search.get('next'));
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome>(
    token ? { kind: 'verifying' } : { kind: 'failed', problem: { kind: 'invalid_token' } },
  );
  const { startSession } = auth;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the "try again" trigger
  useEffect(() => {
    if (!token) return;
    let current = true;
    setOutcome({ kind: 'verifying' });
    verifyOnce(token, async () => {
      const { idToken } = await verifyEmail(token);
      return startSession(idToken, false);
    }).then(
      (result) => {
        if (!current) return;
        if (result.ok) {
          toast.show(t('auth:verified_toast'), 'success');
          void navigate(afterSignInPath(next, result.state), { replace: true });
        } else setOutcome({ kind: 'failed', problem: { kind: 'refused', code: result.refused } });
      },
      (error: unknown) => {
        if (current) setOutcome({ kind: 'failed', problem: authProblem(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [token, attempt, startSession, navigate, next]);

  if (outcome.kind === 'verifying') {
    return (
      <AuthCard title={t('auth:verify_title')} testId="page-verify-email" state="verifying">
        <p className="muted" role="status" aria-busy="true">
          {t('auth:verify_busy')}
        </p>
      </AuthCard>
    );
  }

  const { problem } = outcome;
  const invalid = problem.kind === 'invalid_token';
  const text = invalid
    ? t('auth:verify_invalid')
    : problem.kind === 'refused'
      ? t(refusalKey(problem.code))
      : problem.kind === 'other'
        ? describe(problem.error)
        : problem.kind === 'rate_limited'
          ? t('auth:error_rate_limited')
          : t('errors:unknown');
  return (
    <AuthCard title={t('auth:verify_failed_title')} testId="page-verify-email" state="failed">
      <div className="message-icon" aria-hidden="true">
        <AlertIcon width={40} height={40} />
      </div>
      <p className="notice notice-error" role="alert" data-testid="verify-error" data-problem={problem.kind}>
        {text}
      </p>
      <div className="auth-actions">
        {!invalid && problem.kind !== 'refused' && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => setAttempt((n) => n + 1)}
            data-testid="verify-retry"
          >
            {t('common:retry')}
          </button>
        )}
        <Link to="/signin" className="button button-secondary" data-testid="verify-signin">
          {t('auth:signin_link')}
        </Link>
      </div>
    </AuthCard>
  );
}

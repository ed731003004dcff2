import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { useCountdown } from '../../hooks/use-countdown';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { formatWait } from '../../lib/format';
import type { SessionOutcome } from './auth-context';
import { type AuthProblem, authProblem, refusalKey } from './auth-errors';

/**
 * The state of a form that signs in (the sign-in page, the sign-back-in prompt, the new-password page):
 * busy, the problem to tell, the second-factor step, and the wait after a 429 (counted down).
 */
export function useAuthSubmit() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<AuthProblem | null>(null);
  const [needsCode, setNeedsCode] = useState(false);
  /** The team requires a second factor this account lacks: the token to set one up (SECOND_FACTOR_SETUP_REQUIRED). */
  const [setupToken, setSetupToken] = useState<string | null>(null);
  const [retryUntil, setRetryUntil] = useState<number | null>(null);
  const waitSeconds = useCountdown(retryUntil);

  /** Runs the call; true when a session was started. `withCode`: a second-factor code was given. */
  const run = useCallback(async (call: () => Promise<SessionOutcome>, withCode = false): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    try {
      const outcome = await call();
      if (outcome.ok) return true;
      setProblem({ kind: 'refused', code: outcome.refused });
      return false;
    } catch (error) {
      if (error instanceof ApiError && error.hasCode('SECOND_FACTOR_SETUP_REQUIRED')) {
        const token = error.details.setupToken;
        if (typeof token === 'string') {
          setSetupToken(token);
          return false;
        }
      }
      const found = authProblem(error);
      if (found.kind === 'second_factor' && !withCode) {
        // First time: not an error, the code field appears.
        setNeedsCode(true);
        return false;
      }
      if (found.kind === 'rate_limited' && found.retryAfterSeconds !== null) {
        setRetryUntil(Date.now() + found.retryAfterSeconds * 1000);
      }
      setProblem(found);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  const blocked = problem?.kind === 'rate_limited' && waitSeconds > 0;
  return { busy, problem, setProblem, needsCode, setupToken, waitSeconds, blocked, run };
}

/** One sentence for an AuthProblem, in the page (role=alert). */
export function AuthProblemMessage({
  problem,
  email,
  waitSeconds,
  testId,
}: {
  problem: AuthProblem;
  /** The address a new verification link went to (EMAIL_NOT_VERIFIED). */
  email?: string;
  waitSeconds: number;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  let text: string;
  switch (problem.kind) {
    case 'invalid_credentials':
      text = t('auth:error_invalid_credentials');
      break;
    case 'email_not_verified':
      text = t('auth:error_email_not_verified', { email: email ?? '' });
      break;
    case 'second_factor':
      text = t('auth:error_wrong_code');
      break;
    case 'rate_limited':
      text =
        waitSeconds > 0
          ? t('auth:error_rate_limited_wait', { time: formatWait(waitSeconds, i18n.language) })
          : problem.retryAfterSeconds === null
            ? t('auth:error_rate_limited')
            : t('auth:error_rate_limited_over');
      break;
    case 'refused':
      text = t(refusalKey(problem.code));
      break;
    case 'invalid_token':
      text = t('auth:error_session_token');
      break;
    case 'cookie_refused':
      text = t('auth:error_cookie_refused');
      break;
    default:
      text = describe(problem.error);
  }
  const code =
    problem.kind === 'refused' ? problem.code : problem.kind === 'other' ? undefined : problem.kind;
  return (
    <p className="notice notice-error" role="alert" data-testid={testId} data-problem={code}>
      <AlertIcon /> {text}
    </p>
  );
}

import type { ReceivePointPublic, ReceiveTarget } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon, ClockIcon, LockIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { formatDate } from '../../lib/format';
import { getReceivePoint } from '../../lib/receive-api';
import { PasswordGate } from './password-gate';
import { ReceiveFlow } from './receive-flow';
import { useSetPageTheme } from './receive-layout';
import { ReceiveTitle } from './receive-title';

/** Why a receive page cannot take files: unknown, expired, closed — or an error worth retrying. */
export type PointProblem = 'not_found' | 'expired' | 'closed' | 'other';

export function pointProblemOf(error: unknown): PointProblem {
  if (!(error instanceof ApiError)) return 'other';
  if (error.hasCode('RECEIVE_EXPIRED')) return 'expired';
  if (error.hasCode('RECEIVE_CLOSED')) return 'closed';
  if (error.status === 404) return 'not_found';
  return 'other';
}

const PROBLEM_ICONS: Record<Exclude<PointProblem, 'other'>, ReactNode> = {
  not_found: <AlertIcon width={40} height={40} />,
  expired: <ClockIcon width={40} height={40} />,
  closed: <LockIcon width={40} height={40} />,
};

/** A closed, expired or unknown page, in the visitor's language; other errors with "Try again". */
export function PointError({
  error,
  kind,
  onRetry,
}: {
  error: unknown;
  kind: ReceiveTarget['kind'];
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const problem = pointProblemOf(error);
  if (problem === 'other') {
    return (
      <div className="receive-problem" data-testid="receive-error" data-problem="other">
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(error)}
        </p>
        <div className="panel-actions">
          <button type="button" className="button button-primary" onClick={onRetry}>
            {t('common:retry')}
          </button>
        </div>
      </div>
    );
  }
  const which = problem === 'not_found' && kind === 'push' ? 'push_not_found' : problem;
  return (
    <div className="receive-problem message-panel" data-testid="receive-error" data-problem={problem}>
      <div className="message-icon" aria-hidden="true">
        {PROBLEM_ICONS[problem]}
      </div>
      <h2 className="panel-title">{t(`uploader:receive.problem_${which}_title`)}</h2>
      <p className="muted">{t(`uploader:receive.problem_${which}_text`)}</p>
    </div>
  );
}

/** The requester's words above the files: who asks, the message, until when. */
function PointIntro({ point }: { point: ReceivePointPublic }) {
  const { t, i18n } = useTranslation();
  if (!point.message && !point.expiresAt) return null;
  return (
    <div className="receive-intro">
      {point.message && (
        <blockquote className="receive-message" data-testid="receive-message">
          {point.ownerName && <p className="receive-message-from">{point.ownerName}</p>}
          <p>{point.message}</p>
        </blockquote>
      )}
      {point.expiresAt && (
        <p className="field-hint" data-testid="receive-expires">
          {t('uploader:receive.open_until', { date: formatDate(point.expiresAt, i18n.language) })}
        </p>
      )}
    </div>
  );
}

/**
 * An upload page of a receive point (/r/{requestId}, /i/{slug}, /push?to=…): reads the point, colours the
 * frame with its theme, shows the S3 title area of spec §2 ("Transfer files to {recipient}" and the subject),
 * asks for the password when there is one, then runs the upload flow. A closed, expired or unknown point says
 * so. `before` (the /push "to" field) comes above the panel.
 */
export function PointPage({ target, before }: { target: ReceiveTarget; before?: ReactNode }) {
  const { t } = useTranslation();
  const setTheme = useSetPageTheme();
  const query = useQuery({
    queryKey: ['receive-point', target],
    queryFn: ({ signal }) => getReceivePoint(target, signal),
    retry: false,
    staleTime: 60_000,
  });
  const [password, setPassword] = useState<string | null>(null);
  const [passwordRefused, setPasswordRefused] = useState(false);
  const [goneError, setGoneError] = useState<unknown>(null);
  const point = query.data;
  const theme = useMemo(() => (point ? { ...point.theme, logoURL: point.logoURL ?? null } : null), [point]);
  useEffect(() => {
    setTheme(theme);
    return () => setTheme(null);
  }, [theme, setTheme]);

  const owner = point?.ownerName ?? null;
  // An inbox does not name its owner: its title says who the files are for.
  const recipient = owner ?? point?.title ?? null;
  const heading = recipient
    ? t('uploader:receive.title_to', { name: recipient })
    : t('uploader:receive.title_anyone');
  const subtitle = owner ? point?.title : null;
  const error = goneError ?? query.error;
  const locked = point?.passwordProtected === true && password === null;
  return (
    <div className="uploader-layout receive-layout" data-testid="receive-page" data-point-kind={target.kind}>
      <title>{`${point ? heading : t('uploader:receive.loading')} · ${PRODUCT_NAME}`}</title>
      <ReceiveTitle title={point ? heading : t('uploader:receive.send_files_title')} subtitle={subtitle} />
      <section
        className="panel upload-panel receive-panel"
        aria-label={t('uploader:receive.upload_panel_label')}
        aria-busy={query.isPending || undefined}
      >
        {before}
        {query.isPending && (
          <p className="muted" role="status" data-testid="receive-loading">
            {t('uploader:receive.loading')}
          </p>
        )}
        {error !== null && error !== undefined && (
          <PointError
            error={error}
            kind={target.kind}
            onRetry={() => {
              setGoneError(null);
              void query.refetch();
            }}
          />
        )}
        {point && !error && (
          <>
            <PointIntro point={point} />
            {(locked || passwordRefused) && (
              <PasswordGate
                target={target}
                ownerName={owner}
                wrongBefore={passwordRefused}
                onUnlocked={(value) => {
                  setPassword(value);
                  setPasswordRefused(false);
                }}
              />
            )}
            {!locked && (
              // Kept while the password is asked again, so the chosen files and answers stay.
              <div hidden={passwordRefused}>
                <ReceiveFlow
                  point={point}
                  target={target}
                  password={password}
                  onPasswordRefused={() => setPasswordRefused(true)}
                  onGone={setGoneError}
                />
              </div>
            )}
          </>
        )}
      </section>
    </div>
  );
}

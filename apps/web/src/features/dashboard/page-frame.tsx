import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../hooks/use-describe-error';
import { PRODUCT_NAME } from '../../lib/config';
import { isForbidden, NoAccessNotice } from './no-access';

/** Where a page's data stands, as PageFrame shows it above the page's own content. */
export interface LoadStateProps {
  /** The data is on its way: a status line says so. */
  loading?: boolean;
  /** The status line's text; "Loading…" by default. */
  loadingText?: string;
  loadingTestId?: string;
  /** The data could not be had: a notice says why. */
  error?: unknown;
  errorTestId?: string;
  /** A "Retry" button in the error notice. */
  onRetry?: () => void;
  /**
   * A refusal (403) is said by the short "no access" notice (the default, for the team pages whose data the
   * server may refuse a session with out-of-date permissions); false: it is an error like any other.
   */
  noAccessNotice?: boolean;
}

/** The loading line and the load error of a page's data. */
export function LoadState({
  loading = false,
  loadingText,
  loadingTestId,
  error,
  errorTestId,
  onRetry,
  noAccessNotice = true,
}: LoadStateProps) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  return (
    <>
      {loading && (
        <p className="muted" role="status" aria-busy="true" data-testid={loadingTestId}>
          {loadingText ?? t('account:loading')}
        </p>
      )}
      {error ? (
        noAccessNotice && isForbidden(error) ? (
          <NoAccessNotice />
        ) : (
          <div className="notice notice-error" role="alert" data-testid={errorTestId}>
            <p>{describe(error)}</p>
            {onRetry && (
              <button type="button" className="button button-secondary button-small" onClick={onRetry}>
                {t('common:retry')}
              </button>
            )}
          </div>
        )
      ) : null}
    </>
  );
}

/**
 * The frame of a dashboard page: the document title, the page's heading with what stands under it (`intro`: an
 * introduction, figures, filters), the data's loading line and load error, then the page's content. As a card
 * (`card`, the transfer lists) the heading and all the rest stand in one panel.
 */
export function PageFrame({
  title,
  intro,
  testId,
  className,
  card = false,
  children,
  ...state
}: LoadStateProps & {
  title: string;
  intro?: ReactNode;
  testId: string;
  /** Classes besides `dashboard-page`. */
  className?: string;
  card?: boolean;
  children?: ReactNode;
}) {
  const titleId = useId();
  const body = (
    <>
      <LoadState {...state} />
      {children}
    </>
  );
  return (
    <div className={className ? `dashboard-page ${className}` : 'dashboard-page'} data-testid={testId}>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      {card ? (
        <section className="panel dashboard-card" aria-labelledby={titleId}>
          <h1 id={titleId} className="panel-title">
            {title}
          </h1>
          {intro}
          {body}
        </section>
      ) : (
        <>
          <header className="dashboard-page-header">
            <h1 className="panel-title">{title}</h1>
            {intro}
          </header>
          {body}
        </>
      )}
    </div>
  );
}

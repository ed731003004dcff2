import { WidgetId } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { getReceivePoint } from '../../lib/receive-api';
import { fillTheme } from './theme';
import { useReportHeight, useWidgetLanguage } from './widget-embedding';
import { WidgetFrame } from './widget-frame';
import { WidgetUploader } from './widget-uploader';
import './widget.css';

export const widgetPointKey = (widgetId: string) => ['widget-point', widgetId] as const;

function isCode(error: unknown, code: 'RECEIVE_CLOSED' | 'NOT_FOUND' | 'RECEIVE_EXPIRED'): boolean {
  return error instanceof ApiError && error.hasCode(code);
}

function WidgetMessage({
  title,
  text,
  testId,
  onRetry,
}: {
  title: string;
  text: string;
  testId: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="widget-message-box" role="status" data-testid={testId}>
      <AlertIcon />
      <div>
        <h2 className="widget-receipt-title">{title}</h2>
        <p>{text}</p>
        {onRetry && (
          <button type="button" className="button button-secondary button-small" onClick={onRetry}>
            {t('common:retry')}
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * `/widgets/:widgetId`: the page other sites frame (the one-line snippet or the iframe tag). A bare layout (no
 * header, menus or sign-in: no session call is made), themed with the widget's colours, in the language of
 * `?lang=` or the browser; it tells the embedding page its height (`ferry:widget-height`, heard by /widget.js).
 */
export function WidgetPage({ widgetId }: { widgetId: string }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  useWidgetLanguage();
  const root = useRef<HTMLDivElement>(null);
  useReportHeight(root);
  const valid = WidgetId.safeParse(widgetId).success;
  const query = useQuery({
    queryKey: widgetPointKey(widgetId),
    queryFn: ({ signal }) => getReceivePoint({ kind: 'widget', widgetId }, signal),
    enabled: valid,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [closed, setClosed] = useState(false);
  const point = query.data;
  const error = query.error;

  let body: ReactNode;
  if (!valid || isCode(error, 'NOT_FOUND')) {
    body = (
      <WidgetMessage
        title={t('uploader:widget.not_found_title')}
        text={t('uploader:widget.not_found_text')}
        testId="widget-not-found"
      />
    );
  } else if (closed || isCode(error, 'RECEIVE_CLOSED') || isCode(error, 'RECEIVE_EXPIRED')) {
    body = (
      <WidgetMessage
        title={t('uploader:widget.closed_title')}
        text={t('uploader:widget.closed_text')}
        testId="widget-closed"
      />
    );
  } else if (error) {
    body = (
      <WidgetMessage
        title={t('uploader:widget.error_title')}
        text={describe(error)}
        testId="widget-load-error"
        onRetry={() => void query.refetch()}
      />
    );
  } else if (!point) {
    body = (
      <p className="muted" role="status" aria-busy="true" data-testid="widget-loading">
        {t('uploader:widget.loading')}
      </p>
    );
  } else {
    body = <WidgetUploader widgetId={widgetId} point={point} onClosed={() => setClosed(true)} />;
  }

  return (
    <div ref={root} className="widget-root" data-testid="page-widget">
      <title>{`${point?.title || t('uploader:widget.default_title')} · ${PRODUCT_NAME}`}</title>
      <WidgetFrame
        theme={fillTheme(point?.theme)}
        title={point?.title ?? null}
        logoURL={point?.logoURL}
        ownerName={point?.ownerName}
        message={point?.message}
      >
        <main>{body}</main>
      </WidgetFrame>
    </div>
  );
}

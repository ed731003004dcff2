import type { WidgetView } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDate } from '../../lib/format';
import { listWidgets } from '../../lib/inbox-api';
import { CopyField } from './copy-field';
import { widgetPagePath } from './paths';
import { useInboxKeys } from './use-inboxes';

/** The one-line script and the plain iframe tag of a widget, each with a Copy button. */
export function WidgetCode({ widget }: { widget: WidgetView }) {
  const { t } = useTranslation();
  return (
    <>
      <CopyField
        label={t('account:inboxes.widget_snippet')}
        value={widget.snippet}
        copied={t('account:inboxes.snippet_copied')}
        testId="widget-snippet"
      />
      <CopyField
        label={t('account:inboxes.widget_iframe')}
        value={widget.iframe}
        multiline
        copied={t('account:inboxes.iframe_copied')}
        testId="widget-iframe"
      />
    </>
  );
}

export function widgetName(
  widget: WidgetView,
  t: (key: string, options?: Record<string, unknown>) => string,
  locale: string,
) {
  return widget.name || t('account:inboxes.widget_unnamed', { date: formatDate(widget.createdAt, locale) });
}

/** An inbox's widgets: each with its name, its code to paste and a link to edit it; "New widget". */
export function InboxWidgets({ inboxId, enabled }: { inboxId: string; enabled: boolean }) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const keys = useInboxKeys();
  const query = useQuery({
    queryKey: keys.widgets(inboxId),
    queryFn: ({ signal }) => listWidgets(inboxId, signal),
  });
  return (
    <section className="panel dashboard-card" aria-labelledby="inbox-widgets" data-testid="inbox-widgets">
      <div className="inboxes-header">
        <div>
          <h2 id="inbox-widgets" className="section-title">
            {t('account:inboxes.widgets_title')}
          </h2>
          <p className="field-hint">{t('account:inboxes.widgets_intro')}</p>
        </div>
        <Link
          to={widgetPagePath(inboxId, 'new')}
          className="button button-secondary button-small"
          data-testid="widget-new"
        >
          {t('account:inboxes.widget_new')}
        </Link>
      </div>
      {!enabled && (
        <p className="notice notice-warn" data-testid="widgets-inbox-off">
          {t('account:inboxes.widgets_inbox_off')}
        </p>
      )}
      {query.isPending && (
        <p className="muted" role="status" aria-busy="true">
          {t('account:loading')}
        </p>
      )}
      {query.error && (
        <div className="notice notice-error" role="alert">
          <p>{describe(query.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void query.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {query.data && query.data.items.length === 0 && (
        <p className="muted" data-testid="widgets-empty">
          {t('account:inboxes.widgets_empty')}
        </p>
      )}
      {query.data && query.data.items.length > 0 && (
        <ul className="widget-items" data-testid="widget-list">
          {query.data.items.map((widget) => (
            <li
              key={widget.widgetId}
              className="widget-item"
              data-testid="widget-row"
              data-widget-id={widget.widgetId}
            >
              <div className="inboxes-header">
                <h3 className="item-title">{widgetName(widget, t, i18n.language)}</h3>
                <Link
                  to={widgetPagePath(inboxId, widget.widgetId)}
                  className="button button-secondary button-small"
                  data-testid="widget-edit"
                >
                  {t('account:inboxes.widget_edit')}
                </Link>
              </div>
              <WidgetCode widget={widget} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

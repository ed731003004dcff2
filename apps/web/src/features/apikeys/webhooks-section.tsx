import { WEBHOOK_EVENTS, type WebhookCreated, type WebhookEvent, type WebhookInfo } from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { ShownOnceSecret } from '../../components/shown-once-secret';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDateTime } from '../../lib/format';
import {
  createWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  replayDelivery,
} from '../../lib/webhooks-api';
import { useToast } from '../toasts/toast-context';

const QUERY_KEY = ['webhooks'];

/** A webhook's delivery log, newest first, with replay. */
function Deliveries({ hook }: { hook: WebhookInfo }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const queryClient = useQueryClient();
  const key = [...QUERY_KEY, hook.id, 'deliveries'];
  const log = useQuery({ queryKey: key, queryFn: () => listDeliveries(hook.id) });
  const replay = useMutation({
    mutationFn: replayDelivery,
    onSuccess: () => {
      toast.show(t('apikeys:replayed'), 'success');
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => toast.show(describe(error), 'error'),
  });
  if (log.isPending) return <p className="muted">{t('account:loading')}</p>;
  if (log.error) return <p className="field-error">{describe(log.error)}</p>;
  if (log.data.length === 0)
    return (
      <p className="muted" data-testid="deliveries-empty">
        {t('apikeys:deliveries_empty')}
      </p>
    );
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="deliveries">
        <caption className="visually-hidden">{t('apikeys:deliveries_title', { url: hook.url })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('apikeys:delivery_event')}</th>
            <th scope="col">{t('apikeys:delivery_status')}</th>
            <th scope="col">{t('apikeys:delivery_code')}</th>
            <th scope="col">{t('apikeys:delivery_attempts')}</th>
            <th scope="col">{t('apikeys:delivery_next')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('apikeys:replay')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {log.data.map((d) => (
            <tr key={d.id} data-testid="delivery-row">
              <td>{d.event}</td>
              <td>{t(`apikeys:status_${d.status}`)}</td>
              <td>{d.responseCode ?? d.lastError ?? '—'}</td>
              <td>{d.attempts}</td>
              <td>{d.nextAttemptAt ? formatDateTime(d.nextAttemptAt, i18n.language) : '—'}</td>
              <td>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  disabled={replay.isPending && replay.variables === d.id}
                  onClick={() => replay.mutate(d.id)}
                  data-testid="delivery-replay"
                >
                  {t('apikeys:replay')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Webhooks: add one (URL, all events or a chosen few; the secret is shown once), list them, show each one's
 * delivery log with replay, remove one after confirmation.
 */
export function WebhooksSection() {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const queryClient = useQueryClient();
  const id = useId();
  const hooks = useQuery({ queryKey: QUERY_KEY, queryFn: listWebhooks });
  const [url, setUrl] = useState('');
  const [allEvents, setAllEvents] = useState(true);
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const urlInput = useRef<HTMLInputElement>(null);

  const create = useMutation({
    mutationFn: createWebhook,
    onSuccess: (hook) => {
      setCreated(hook);
      setUrl('');
      setAllEvents(true);
      setEvents([]);
      void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
    onError: (e) => setError(describe(e)),
  });
  const remove = useMutation({
    mutationFn: (hook: WebhookInfo) => removeWebhook(hook.id),
    onSuccess: () => {
      toast.show(t('apikeys:webhook_removed'), 'success');
      void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
    onError: (e) => toast.show(describe(e), 'error'),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    if (!/^https?:\/\/\S+$/i.test(url.trim())) {
      setError(t('apikeys:url_invalid'));
      urlInput.current?.focus();
      return;
    }
    if (!allEvents && events.length === 0) {
      setError(t('apikeys:events_required'));
      return;
    }
    setError(null);
    create.mutate({ url: url.trim(), ...(allEvents ? {} : { events }) });
  };

  return (
    <section aria-labelledby={`${id}-title`} data-testid="webhooks-section">
      <h2 className="section-title" id={`${id}-title`}>
        {t('apikeys:webhooks_title')}
      </h2>
      <p className="muted">{t('apikeys:webhooks_intro')}</p>
      {created && (
        <ShownOnceSecret
          once={t('apikeys:secret_once')}
          label={t('apikeys:secret_label')}
          value={created.secret}
          copied={t('apikeys:secret_copied')}
          testIds={{
            panel: 'webhook-created-panel',
            value: 'webhook-secret',
            copy: 'webhook-secret-copy',
            done: 'webhook-done',
          }}
          onDone={() => {
            setCreated(null);
            create.reset();
            urlInput.current?.focus();
          }}
        />
      )}
      <form className="token-form" noValidate onSubmit={onSubmit} data-testid="webhook-form">
        <LabelledField label={t('apikeys:url_label')}>
          {(props) => (
            <input
              {...props}
              ref={urlInput}
              type="url"
              inputMode="url"
              autoComplete="off"
              maxLength={2000}
              value={url}
              placeholder="https://example.com/ferry-events"
              // The form's one error (the address or the events) is shown below the events.
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => setUrl(event.target.value)}
              data-testid="webhook-url"
            />
          )}
        </LabelledField>
        <fieldset className="field">
          <legend>{t('apikeys:events_legend')}</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={allEvents}
              onChange={(event) => setAllEvents(event.target.checked)}
              data-testid="webhook-all-events"
            />
            <span>{t('apikeys:events_all')}</span>
          </label>
          {!allEvents && (
            <div className="webhook-events">
              {WEBHOOK_EVENTS.map((e) => (
                <label key={e} className="checkbox">
                  <input
                    type="checkbox"
                    checked={events.includes(e)}
                    onChange={(event) =>
                      setEvents(
                        WEBHOOK_EVENTS.filter((x) => (x === e ? event.target.checked : events.includes(x))),
                      )
                    }
                    data-testid={`webhook-event-${e}`}
                  />
                  <span className="mono">{e}</span>
                </label>
              ))}
            </div>
          )}
        </fieldset>
        {error && (
          <p className="field-error" id={`${id}-error`} role="alert">
            {error}
          </p>
        )}
        <button
          type="submit"
          className="button button-primary"
          disabled={create.isPending}
          aria-busy={create.isPending || undefined}
          data-testid="webhook-create"
        >
          {t('apikeys:webhook_add')}
        </button>
      </form>
      {hooks.error && (
        <p className="notice notice-error" role="alert">
          {describe(hooks.error)}
        </p>
      )}
      {hooks.data?.length === 0 && (
        <p className="muted" data-testid="webhooks-empty">
          {t('apikeys:webhooks_empty')}
        </p>
      )}
      {hooks.data && hooks.data.length > 0 && (
        <ul className="item-list" aria-label={t('apikeys:webhooks_title')} data-testid="webhook-list">
          {hooks.data.map((hook) => (
            <li key={hook.id} className="item-row" data-testid="webhook-row">
              <div className="item-main">
                <p className="item-title mono">{hook.url}</p>
                <p className="muted">
                  {hook.events.length === WEBHOOK_EVENTS.length
                    ? t('apikeys:events_all')
                    : hook.events.join(', ')}
                </p>
                {open === hook.id && <Deliveries hook={hook} />}
              </div>
              <div className="auth-actions">
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-expanded={open === hook.id}
                  onClick={() => setOpen(open === hook.id ? null : hook.id)}
                  data-testid="webhook-deliveries"
                >
                  {t('apikeys:deliveries_show')}
                </button>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={t('apikeys:webhook_remove_label', { url: hook.url })}
                  onClick={() => {
                    if (window.confirm(t('apikeys:webhook_remove_confirm', { url: hook.url })))
                      remove.mutate(hook);
                  }}
                  data-testid="webhook-remove"
                >
                  {t('apikeys:webhook_remove')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

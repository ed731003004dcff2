import type { InboxView, WidgetView } from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { useCheckedSubmit } from '../../hooks/use-checked-submit';
import { useDescribeError } from '../../hooks/use-describe-error';
import { useUserState } from '../../hooks/use-user-state';
import { PRODUCT_NAME } from '../../lib/config';
import { createWidget, deleteWidget, getInbox, getWidget, updateWidget } from '../../lib/inbox-api';
import { ActionError, ConfirmButton } from '../dashboard/transfers/confirm-button';
import { useToast } from '../toasts/toast-context';
import { fillTheme } from '../widget/theme';
import { WidgetPreview } from '../widget/widget-preview';
import { FieldsEditor } from './fields-editor';
import { fieldsOfDraft } from './fields-state';
import type { InboxCaps } from './inbox-form-state';
import { WidgetCode, widgetName } from './inbox-widgets';
import { inboxPath, widgetPagePath } from './paths';
import { ThemeEditor } from './theme-editor';
import { useInboxCaps, useInboxKeys, useInboxList, useRefreshInboxes } from './use-inboxes';
import {
  newWidgetDraft,
  type WidgetDraft,
  widgetCreateOf,
  widgetDraftOf,
  widgetEditorProblems,
  widgetUpdateOf,
} from './widget-editor-state';
import './inboxes.css';

function WidgetEditorForm(props: {
  inbox: InboxView;
  caps: InboxCaps;
  widget: WidgetView | null;
  onSaved: (widget: WidgetView) => Promise<void>;
}) {
  const { t } = useTranslation();
  const _describe = useDescribeError();
  const user = useUserState();
  const { inbox, caps, widget } = props;
  const id = useId();
  const [draft, setDraft] = useState<WidgetDraft>(() =>
    widget ? widgetDraftOf(widget) : newWidgetDraft(inbox),
  );
  const own = widgetEditorProblems(draft);
  const invalid = Object.keys(own).length > 0;
  const { form, checked, busy, failure, onSubmit } = useCheckedSubmit({
    invalid,
    save: async () => {
      const saved = widget
        ? await updateWidget(widget.widgetId, widgetUpdateOf(draft, widget, inbox, caps.allowCustomization))
        : await createWidget(inbox.inboxId, widgetCreateOf(draft, inbox, caps.allowCustomization));
      await props.onSaved(saved);
    },
  });
  const problems = checked ? own : {};

  const fields = fieldsOfDraft(draft.fields, inbox.linkMode);
  const inboxTheme = fillTheme(inbox.customization);
  return (
    <form
      ref={form}
      className="settings-form inbox-form"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      data-testid="widget-editor"
    >
      <section className="panel dashboard-card" aria-labelledby={`${id}-about`}>
        <h2 id={`${id}-about`} className="section-title">
          {t('account:inboxes.widget_section')}
        </h2>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('account:inboxes.widget_name')}</label>
          <input
            id={`${id}-name`}
            type="text"
            value={draft.name}
            aria-invalid={problems.name ? true : undefined}
            aria-describedby={`${id}-name-hint`}
            onChange={(event) => setDraft((d) => ({ ...d, name: event.target.value }))}
            data-testid="widget-name-input"
          />
          <p id={`${id}-name-hint`} className={problems.name ? 'field-error' : 'field-hint'}>
            {problems.name
              ? t('account:inboxes.too_long', { max: 200 })
              : t('account:inboxes.widget_name_hint')}
          </p>
        </div>
        <FieldsEditor
          value={draft.fields}
          linkMode={inbox.linkMode}
          problems={problems.questions ?? {}}
          testId="widget-fields"
          onChange={(next) => setDraft((d) => ({ ...d, fields: next }))}
        />
      </section>
      <section className="panel dashboard-card" aria-labelledby={`${id}-look`}>
        <h2 id={`${id}-look`} className="section-title">
          {t('account:inboxes.section_look')}
        </h2>
        <div className="inbox-look">
          {caps.allowCustomization ? (
            <ThemeEditor
              value={draft.colors}
              fallback={inboxTheme}
              testId="widget-colors"
              onChange={(colors) => setDraft((d) => ({ ...d, colors }))}
            />
          ) : (
            <p className="field-hint" data-testid="widget-colors-locked">
              {t(caps.managed ? 'account:inboxes.colors_locked_managed' : 'account:inboxes.colors_locked')}
            </p>
          )}
          <WidgetPreview
            theme={fillTheme(caps.allowCustomization ? draft.colors : null, inbox.customization)}
            title={inbox.title}
            ownerName={user.profile?.info.firstname ?? null}
            message={inbox.description}
            point={{
              fields: {
                name: fields.name ?? 'optional',
                email: fields.email ?? 'optional',
                message: fields.message ?? 'optional',
                questions: (fields.questions ?? [])
                  .filter((q) => q.label.trim() !== '')
                  .map((q) => ({ id: q.id, label: q.label, required: q.required === true })),
              },
              passwordProtected: inbox.passwordProtected,
              allowedExtensions: inbox.effectiveAllowedExtensions,
              maxUploadBytes: Math.min(inbox.maxUploadBytes ?? caps.maxUploadBytes, caps.maxUploadBytes),
            }}
            testId="widget-preview"
          />
        </div>
      </section>
      <div className="settings-actions">
        {checked && invalid && (
          <p className="notice notice-error" role="alert" data-testid="widget-invalid">
            <AlertIcon /> {t('account:inboxes.invalid')}
          </p>
        )}
        {failure && (
          <p className="notice notice-error" role="alert" data-testid="widget-save-error">
            <AlertIcon /> {failure}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy} data-testid="widget-save">
          {busy
            ? t('account:inboxes.saving')
            : t(widget ? 'account:inboxes.save' : 'account:inboxes.widget_create')}
        </button>
      </div>
    </form>
  );
}

function DeleteWidget({ widget, inboxId }: { widget: WidgetView; inboxId: string }) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const toast = useToast();
  const navigate = useNavigate();
  const client = useQueryClient();
  const keys = useInboxKeys();
  const refresh = useRefreshInboxes();
  const remove = useMutation({
    mutationFn: () => deleteWidget(widget.widgetId),
    onSuccess: async () => {
      client.removeQueries({ queryKey: keys.widget(widget.widgetId) });
      toast.show(t('account:inboxes.widget_deleted'), 'success');
      await refresh();
      await navigate(inboxPath(inboxId));
    },
  });
  return (
    <section className="panel dashboard-card" aria-labelledby="widget-delete">
      <h2 id="widget-delete" className="section-title">
        {t('account:inboxes.widget_delete_title')}
      </h2>
      <p className="field-hint">{t('account:inboxes.widget_delete_hint')}</p>
      <div>
        <ConfirmButton
          label={t('account:inboxes.widget_delete')}
          question={t('account:inboxes.widget_delete_confirm', {
            name: widgetName(widget, t, i18n.language),
          })}
          testId="widget-delete"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <ActionError error={remove.error ? describe(remove.error) : null} testId="widget-delete-error" />
    </section>
  );
}

/**
 * `/dashboard/admin/inboxes/:inboxId/widgets/new` and `…/widgets/:widgetId`: a widget's name, colours (the
 * inbox's, else spec §3's defaults, unless set) and fields with a live preview; once saved, the one-line
 * script and the iframe tag to paste, each with a Copy button; delete.
 */
export function WidgetEditorPage({ inboxId, widgetId }: { inboxId: string; widgetId: string | null }) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const toast = useToast();
  const navigate = useNavigate();
  const client = useQueryClient();
  const keys = useInboxKeys();
  const refresh = useRefreshInboxes();
  const inboxQuery = useQuery({
    queryKey: keys.inbox(inboxId),
    queryFn: ({ signal }) => getInbox(inboxId, signal),
  });
  const widgetQuery = useQuery({
    queryKey: keys.widget(widgetId ?? ''),
    queryFn: ({ signal }) => getWidget(widgetId ?? '', signal),
    enabled: widgetId !== null,
  });
  const list = useInboxList();
  const caps = useInboxCaps(list.data);
  const inbox = inboxQuery.data;
  // The answer of the last save, at once (the query catches up a moment later).
  const [latest, setLatest] = useState<{ widget: WidgetView; version: number } | null>(null);
  const fresh = latest?.widget.widgetId === widgetId ? latest : null;
  const widget = widgetId === null ? null : (fresh?.widget ?? widgetQuery.data ?? null);
  const ready = inbox && caps && (widgetId === null || widget);
  const error = inboxQuery.error ?? list.error ?? (widgetId === null ? null : widgetQuery.error);
  const title =
    widgetId === null
      ? t('account:inboxes.widget_new_title')
      : widget
        ? widgetName(widget, t, i18n.language)
        : '';

  return (
    <div className="dashboard-page inboxes-page" data-testid="page-widget-editor">
      <title>{`${title || t('account:inboxes.widgets_title')} · ${PRODUCT_NAME}`}</title>
      <p>
        <Link to={inboxPath(inboxId)} data-testid="widget-back">
          {inbox ? t('account:inboxes.back_to', { title: inbox.title }) : t('account:inboxes.back')}
        </Link>
      </p>
      <header className="dashboard-page-header">
        <h1 className="panel-title" data-testid="widget-heading">
          {title}
        </h1>
        <p className="muted">{t('account:inboxes.widget_intro')}</p>
      </header>
      {!ready && !error && (
        <p className="muted" role="status" aria-busy="true">
          {t('account:loading')}
        </p>
      )}
      {error && (
        <div className="notice notice-error" role="alert" data-testid="widget-load-error">
          <p>{describe(error)}</p>
        </div>
      )}
      {ready && widget && (
        <section className="panel dashboard-card" aria-labelledby="widget-code" data-testid="widget-code">
          <h2 id="widget-code" className="section-title">
            {t('account:inboxes.widget_code_title')}
          </h2>
          <p className="field-hint">{t('account:inboxes.widget_code_hint')}</p>
          <WidgetCode widget={widget} />
          <p>
            <a href={widget.url} target="_blank" rel="noreferrer" data-testid="widget-open">
              {t('account:inboxes.widget_open')}
            </a>
          </p>
        </section>
      )}
      {ready && (
        <WidgetEditorForm
          key={`${widget?.widgetId ?? 'new'}-${fresh?.version ?? 0}`}
          inbox={inbox}
          caps={caps}
          widget={widget}
          onSaved={async (saved) => {
            client.setQueryData(keys.widget(saved.widgetId), saved);
            setLatest((l) => ({ widget: saved, version: (l?.version ?? 0) + 1 }));
            await refresh();
            if (widget) {
              toast.show(t('account:inboxes.saved'), 'success');
            } else {
              toast.show(t('account:inboxes.widget_created'), 'success');
              await navigate(widgetPagePath(inboxId, saved.widgetId));
            }
          }}
        />
      )}
      {ready && widget && <DeleteWidget widget={widget} inboxId={inboxId} />}
    </div>
  );
}

import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PRODUCT_NAME } from '../../lib/config';
import { PointPage } from './point-page';
import { ReceiveTitle } from './receive-title';

/** Who the files go to: an account's e-mail address (its default inbox) or an inbox's name. */
function ToForm({ initial, onCancel }: { initial: string; onCancel?: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const [to, setTo] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = to.trim();
    if (value === '') return;
    void navigate({ pathname: '/push', search: `?to=${encodeURIComponent(value)}` });
  };
  return (
    <form className="push-to" onSubmit={submit} data-testid="push-to-form">
      <label htmlFor={id} className="field-label">
        {t('uploader:receive.push_to_label')}
      </label>
      <div className="input-with-button">
        <input
          id={id}
          type="text"
          inputMode="email"
          autoCapitalize="off"
          autoComplete="off"
          spellCheck={false}
          maxLength={320}
          value={to}
          placeholder={t('uploader:receive.push_to_placeholder')}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setTo(e.target.value)}
          data-testid="push-to"
        />
        <button type="submit" className="button button-primary" data-testid="push-to-submit">
          {t('common:next')}
        </button>
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        {t('uploader:receive.push_to_hint', { product: PRODUCT_NAME })}
      </p>
      {onCancel && (
        <button type="button" className="button button-secondary button-small" onClick={onCancel}>
          {t('common:cancel')}
        </button>
      )}
    </form>
  );
}

/** "Sending to …" with a way to change it. */
function ToLine({ to }: { to: string }) {
  const { t } = useTranslation();
  const [changing, setChanging] = useState(false);
  if (changing) return <ToForm initial={to} onCancel={() => setChanging(false)} />;
  return (
    <p className="push-to-line" data-testid="push-to-line">
      {t('uploader:receive.push_sending_to', { to })}{' '}
      <button
        type="button"
        className="link-button"
        onClick={() => setChanging(true)}
        data-testid="push-to-change"
      >
        {t('uploader:receive.push_change')}
      </button>
    </p>
  );
}

/**
 * `/push` (spec §2, §4: S3 by default): push files straight into an account, by its owner's e-mail address or
 * an inbox's name — typed here, or given as `?to=`. The upload goes into the account's default inbox (or the
 * named one) like any inbox upload. Signed-out visitors see the limited layout.
 */
export function PushPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const to = (params.get('to') ?? '').trim();
  if (to !== '')
    return <PointPage key={to.toLowerCase()} target={{ kind: 'push', to }} before={<ToLine to={to} />} />;
  return (
    <div className="uploader-layout receive-layout" data-testid="receive-page" data-point-kind="push">
      <title>{`${t('uploader:receive.push_title')} · ${PRODUCT_NAME}`}</title>
      <ReceiveTitle
        title={t('uploader:receive.push_title')}
        subtitle={t('uploader:receive.push_subtitle', { product: PRODUCT_NAME })}
      />
      <section
        className="panel upload-panel receive-panel"
        aria-label={t('uploader:receive.upload_panel_label')}
      >
        <ToForm initial="" />
      </section>
    </div>
  );
}

import type { OwnerCustomization, ThemeAsset, ThemeAssetKind } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import {
  deleteThemeAsset,
  getOwnerCustomization,
  saveCustomization,
  uploadThemeAsset,
} from '../../lib/theme-api';
import { useAuth } from '../auth/auth-context';
import { PageFrame } from '../dashboard/page-frame';
import { DomainsPanel } from '../domains/domains-panel';
import { useToast } from '../toasts/toast-context';
import { AssetUpload } from './asset-upload';
import { ColorField } from './color-field';
import {
  COLOR_FIELDS,
  type CustomizationDraft,
  contrastProblems,
  draftOf,
  draftValid,
  isDirty,
  previewVariables,
  updateOf,
} from './customization-state';
import { THEME_QUERY_KEY } from './theme-context';
import { ThemePreview } from './theme-preview';
import './customization.css';

const ownKey = (uid: string) => ['customization', uid];

/** `/dashboard/customization` (spec §2, §3 Theme): the account's or team's logo, colours, wallpapers, texts, mails. */
export function CustomizationPage() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const uid = state.user?.uid ?? '';
  const member = state.managerId !== null;
  const query = useQuery({
    queryKey: ownKey(uid),
    queryFn: ({ signal }) => getOwnerCustomization(uid, signal),
    enabled: uid !== '' && !member,
  });
  return (
    <PageFrame
      title={t('account:dashboard.menu_customization')}
      intro={<p className="muted">{t('account:customization.intro')}</p>}
      testId="page-dashboard-customization"
      loading={query.isPending && !member}
      error={query.error}
      onRetry={() => void query.refetch()}
      noAccessNotice={false}
    >
      {member ? (
        <div className="notice" data-testid="customization-member">
          <p>{t('account:customization.member_notice')}</p>
        </div>
      ) : query.data ? (
        <CustomizationEditor uid={uid} data={query.data} />
      ) : null}
    </PageFrame>
  );
}

function CustomizationEditor({ uid, data }: { uid: string; data: OwnerCustomization }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const toast = useToast();
  const client = useQueryClient();
  const saved = useMemo(() => draftOf(data.theme), [data.theme]);
  const [draft, setDraft] = useState<CustomizationDraft>(saved);
  const [busy, setBusy] = useState<ThemeAssetKind | 'save' | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDraft(saved), [saved]);
  const problems = contrastProblems(draft);
  const editable = data.editable;
  const set = <K extends keyof CustomizationDraft>(key: K, value: CustomizationDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: ownKey(uid) });
    await client.invalidateQueries({ queryKey: [THEME_QUERY_KEY] });
  };

  const upload = async (kind: ThemeAssetKind, file: File) => {
    setBusy(kind);
    setError(null);
    try {
      const asset = await uploadThemeAsset(uid, kind, file);
      // The new asset joins the draft; a replaced logo, header or video is already gone on the server.
      const keep = draft;
      client.setQueryData<OwnerCustomization>(ownKey(uid), (old) =>
        old
          ? {
              ...old,
              assets: [...old.assets.filter((a) => kind === 'wallpaper' || a.kind !== kind), asset],
            }
          : old,
      );
      setDraft({
        ...keep,
        ...(kind === 'logo' ? { logoURL: asset.url } : {}),
        ...(kind === 'mailHeader' ? { mailHeaderURL: asset.url } : {}),
        ...(kind === 'video' ? { backgroundVideoURL: asset.url } : {}),
        ...(kind === 'wallpaper' ? { wallpaperURLs: [...keep.wallpaperURLs, asset.url] } : {}),
      });
      toast.show(t('account:customization.uploaded'), 'success');
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(null);
    }
  };

  const remove = async (asset: ThemeAsset) => {
    setError(null);
    try {
      await deleteThemeAsset(uid, asset.assetId);
      setDraft((d) => ({
        ...d,
        logoURL: d.logoURL === asset.url ? null : d.logoURL,
        mailHeaderURL: d.mailHeaderURL === asset.url ? null : d.mailHeaderURL,
        backgroundVideoURL: d.backgroundVideoURL === asset.url ? null : d.backgroundVideoURL,
        wallpaperURLs: d.wallpaperURLs.filter((u) => u !== asset.url),
      }));
      client.setQueryData<OwnerCustomization>(ownKey(uid), (old) =>
        old ? { ...old, assets: old.assets.filter((a) => a.assetId !== asset.assetId) } : old,
      );
      toast.show(t('account:customization.deleted'), 'success');
    } catch (e) {
      setError(describe(e));
    }
  };

  const save = async () => {
    setBusy('save');
    setError(null);
    try {
      const theme = await saveCustomization(uid, updateOf(draft, saved));
      client.setQueryData<OwnerCustomization>(ownKey(uid), (old) => (old ? { ...old, theme } : old));
      await refresh();
      toast.show(t('account:customization.saved'), 'success');
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(null);
    }
  };

  const assetsOf = (kind: ThemeAssetKind) => data.assets.filter((a) => a.kind === kind);
  const single = (kind: 'logo' | 'mailHeader', field: 'logoURL' | 'mailHeaderURL', alt: string) => {
    const current = assetsOf(kind)[0];
    return (
      <>
        {current && draft[field] === current.url ? (
          <div className="asset-item">
            <img className="asset-thumb" src={current.url} alt={alt} data-testid={`asset-${kind}`} />
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => void remove(current)}
              disabled={!editable}
            >
              {t('account:customization.remove')}
            </button>
          </div>
        ) : (
          <p className="muted">{t('account:customization.none_yet')}</p>
        )}
        {editable && (
          <AssetUpload
            kind={kind}
            label={t(
              kind === 'logo'
                ? 'account:customization.upload_logo'
                : 'account:customization.upload_mail_header',
            )}
            busy={busy === kind}
            onFile={(file) => void upload(kind, file)}
          />
        )}
      </>
    );
  };

  return (
    <div className="customization-grid">
      <ThemePreview draft={draft} variables={previewVariables(draft, saved)} />
      <form
        className="customization-section"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        aria-label={t('account:dashboard.menu_customization')}
      >
        {!editable && (
          <div className="notice" data-testid="customization-upgrade">
            <p>{t('account:customization.upgrade_notice')}</p>
            <Link to="/prices">{t('account:customization.upgrade_link')}</Link>
          </div>
        )}
        <fieldset className="panel customization-section" disabled={!editable}>
          <legend className="section-title">{t('account:customization.section_logo')}</legend>
          {single('logo', 'logoURL', t('account:customization.logo_alt'))}
        </fieldset>
        <fieldset className="panel customization-section" disabled={!editable}>
          <legend className="section-title">{t('account:customization.section_colors')}</legend>
          <div className="customization-colors">
            {COLOR_FIELDS.map((field) => (
              <ColorField
                key={field}
                label={t(`account:customization.field_${field}`)}
                hint={t(`account:customization.hint_${field}`)}
                value={draft[field]}
                problem={problems[field]}
                onChange={(v) => set(field, v)}
                testId={`color-${field}`}
              />
            ))}
          </div>
        </fieldset>
        <fieldset className="panel customization-section" disabled={!editable}>
          <legend className="section-title">{t('account:customization.section_wallpapers')}</legend>
          <p className="field-hint">{t('account:customization.wallpapers_hint')}</p>
          <ul className="asset-list">
            {assetsOf('wallpaper').map((asset, i) => (
              <li key={asset.assetId} className="asset-item">
                <img
                  className="asset-thumb"
                  src={asset.url}
                  alt={t('account:customization.wallpaper_alt', { n: i + 1 })}
                />
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={draft.wallpaperURLs.includes(asset.url)}
                    onChange={(e) =>
                      set(
                        'wallpaperURLs',
                        e.target.checked
                          ? [...draft.wallpaperURLs, asset.url]
                          : draft.wallpaperURLs.filter((u) => u !== asset.url),
                      )
                    }
                  />
                  {t('account:customization.use_wallpaper')}
                </label>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  onClick={() => void remove(asset)}
                >
                  {t('account:customization.remove')}
                </button>
              </li>
            ))}
          </ul>
          {editable && (
            <AssetUpload
              kind="wallpaper"
              label={t('account:customization.upload_wallpaper')}
              busy={busy === 'wallpaper'}
              onFile={(file) => void upload('wallpaper', file)}
            />
          )}
          <h3 className="section-subtitle">{t('account:customization.section_video')}</h3>
          {assetsOf('video').map((asset) => (
            <div key={asset.assetId} className="asset-item">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.backgroundVideoURL === asset.url}
                  onChange={(e) => set('backgroundVideoURL', e.target.checked ? asset.url : null)}
                />
                {t('account:customization.use_video')}
              </label>
              <button
                type="button"
                className="button button-secondary button-small"
                onClick={() => void remove(asset)}
              >
                {t('account:customization.remove')}
              </button>
            </div>
          ))}
          {editable && (
            <AssetUpload
              kind="video"
              label={t('account:customization.upload_video')}
              busy={busy === 'video'}
              onFile={(file) => void upload('video', file)}
            />
          )}
        </fieldset>
        <fieldset className="panel customization-section" disabled={!editable}>
          <legend className="section-title">{t('account:customization.section_uploader')}</legend>
          <LabelledField
            label={t('account:customization.field_subject')}
            hint={t('account:customization.hint_subject')}
          >
            {(p) => (
              <input
                {...p}
                type="text"
                maxLength={200}
                value={draft.subject}
                onChange={(e) => set('subject', e.target.value)}
                data-testid="field-subject"
              />
            )}
          </LabelledField>
          <LabelledField
            label={t('account:customization.field_recipientLabel')}
            hint={t('account:customization.hint_recipientLabel')}
          >
            {(p) => (
              <input
                {...p}
                type="text"
                maxLength={60}
                value={draft.recipientLabel}
                onChange={(e) => set('recipientLabel', e.target.value)}
                data-testid="field-recipient-label"
              />
            )}
          </LabelledField>
        </fieldset>
        <fieldset className="panel customization-section" disabled={!editable}>
          <legend className="section-title">{t('account:customization.section_mail')}</legend>
          <p className="field-hint">{t('account:customization.mail_hint')}</p>
          {single('mailHeader', 'mailHeaderURL', t('account:customization.mail_header_alt'))}
        </fieldset>
        {error && (
          <div className="notice notice-error" role="alert" data-testid="customization-error">
            <p>{error}</p>
          </div>
        )}
        {editable && (
          <div className="form-actions">
            <button
              type="submit"
              className="button button-primary"
              disabled={busy !== null || !draftValid(draft) || !isDirty(draft, saved)}
              data-testid="customization-save"
            >
              {busy === 'save' ? t('account:customization.saving') : t('account:customization.save')}
            </button>
          </div>
        )}
      </form>
      {data.theme.subdomainsEnabled && editable && (
        // Its own forms: outside the theme's form.
        <div className="panel customization-section" data-testid="customization-address">
          <DomainsPanel ownerId={uid} />
        </div>
      )}
    </div>
  );
}

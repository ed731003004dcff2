import { useTranslation } from 'react-i18next';
import { LogoMark } from '../../components/icons';
import { PRODUCT_NAME } from '../../lib/config';
import type { CustomizationDraft } from './customization-state';

/** The live preview: the header band with the logo, a panel on the wallpaper, a link, a button and the start button. */
export function ThemePreview({
  draft,
  variables,
}: {
  draft: CustomizationDraft;
  variables: Record<string, string>;
}) {
  const { t } = useTranslation();
  const wallpaper = draft.wallpaperURLs[0];
  return (
    <section
      className="theme-preview"
      aria-label={t('account:customization.preview_title')}
      style={variables}
      data-testid="theme-preview"
    >
      <div className="theme-preview-band" data-testid="theme-preview-band">
        {draft.logoURL ? (
          <img className="brand-logo" src={draft.logoURL} alt={t('account:customization.logo_alt')} />
        ) : (
          <LogoMark className="brand-mark" />
        )}
        <strong>{draft.subject.trim() || PRODUCT_NAME}</strong>
      </div>
      <div
        className="theme-preview-body"
        style={wallpaper ? { backgroundImage: `url("${wallpaper}")` } : undefined}
        data-testid="theme-preview-body"
      >
        <div className="theme-preview-card">
          <span>{draft.recipientLabel.trim() || t('uploader:field_recipients')}</span>
          <span className="theme-preview-link" data-testid="theme-preview-link">
            {t('account:customization.preview_link')}
          </span>
          <span className="theme-preview-action" data-testid="theme-preview-action">
            {t('account:customization.preview_action')}
          </span>
          <span className="theme-preview-start" data-testid="theme-preview-start">
            {t('account:customization.preview_start')}
          </span>
        </div>
      </div>
    </section>
  );
}

import { themeContrastProblems } from '@ferry/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormField, TransferForm } from './uploader-state';

const COLORS = [
  ['pageBackgroundColor', 'backgroundColor'],
  ['pageActionColor', 'actionColor'],
  ['pageStartColor', 'startbtnColor'],
] as const;

/**
 * Spec §3 transfer form `customization` (paid plans): this transfer's download page in other colours and with one of
 * the account's wallpapers, over the account theme. Colours start from the theme's.
 */
export function PageCustomization({
  form,
  set,
  wallpapers,
  themeColors,
}: {
  form: TransferForm;
  set: (field: FormField) => (value: string | boolean) => void;
  wallpapers: readonly string[];
  themeColors: { backgroundColor: string; actionColor: string; startbtnColor: string };
}) {
  const { t } = useTranslation();
  const id = useId();
  const problems = themeContrastProblems({
    backgroundColor: form.pageBackgroundColor || null,
    actionColor: form.pageActionColor || null,
    startbtnColor: form.pageStartColor || null,
  });
  return (
    <fieldset className="page-customization" data-testid="page-customization">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.pageCustomized}
          onChange={(e) => set('pageCustomized')(e.target.checked)}
          data-testid="page-customized"
        />
        {t('uploader:customize_page')}
      </label>
      {form.pageCustomized && (
        <div className="page-customization-fields">
          {COLORS.map(([field, theme]) => (
            <div className="field" key={field}>
              <label htmlFor={`${id}-${field}`}>{t(`account:customization.field_${theme}`)}</label>
              <input
                id={`${id}-${field}`}
                type="color"
                value={(form[field] || themeColors[theme]).toLowerCase()}
                onChange={(e) => set(field)(e.target.value)}
                data-testid={`page-${theme}`}
              />
            </div>
          ))}
          {problems.map((p) => (
            <p key={p.field} className="field-error" role="alert">
              {t('account:customization.contrast_low', { ratio: p.ratio, min: p.min })}
            </p>
          ))}
          {wallpapers.length > 0 && (
            <div className="field">
              <label htmlFor={`${id}-wallpaper`}>{t('uploader:customize_wallpaper')}</label>
              <select
                id={`${id}-wallpaper`}
                value={form.pageWallpaperURL}
                onChange={(e) => set('pageWallpaperURL')(e.target.value)}
              >
                <option value="">{t('uploader:customize_wallpaper_theme')}</option>
                {wallpapers.map((url, i) => (
                  <option key={url} value={url}>
                    {t('account:customization.wallpaper_alt', { n: i + 1 })}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
      )}
    </fieldset>
  );
}

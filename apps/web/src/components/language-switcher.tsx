import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLocale, UI_LOCALES, type UiLocale } from '../i18n';

/** A language's own name ("English", "Français"), from the browser's Intl data rather than a word list. */
export function autonym(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
    return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    return code;
  }
}

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = (i18n.resolvedLanguage ?? i18n.language) as UiLocale;
  return (
    <div className="language-switcher">
      <label htmlFor={id} className="visually-hidden">
        {t('common:language')}
      </label>
      <select
        id={id}
        value={current}
        data-testid="language-switcher"
        onChange={(event) => void changeLocale(event.target.value as UiLocale, i18n)}
      >
        {UI_LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {autonym(code)}
          </option>
        ))}
      </select>
    </div>
  );
}

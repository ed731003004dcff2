import { bcp47Of, directionOf, localeInfo, withLocalePrefix } from '@ferry/core';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useAuth } from '../features/auth/auth-context';
import { saveLocale, UI_LOCALES, type UiLocale } from '../i18n';
import { updateUserProfile } from '../lib/auth-api';

/** A language's own name, as the switcher lists it ("Deutsch", "日本語"): core's locale table. */
export function autonym(code: string): string {
  return localeInfo(code)?.nativeName ?? code;
}

/** The full page load of a language switch (a seam for tests). */
export const navigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/**
 * Shows the page in another language: remembers the choice in this browser and, signed in, as the account's
 * language (PATCH /api/user/users/{id}), then loads the same page under the language's prefix (the bare path
 * for English). `location` is the router's, so without the current prefix.
 */
export async function switchLanguage(
  code: UiLocale,
  location: { pathname: string; search: string; hash: string },
  uid: string | null,
): Promise<void> {
  saveLocale(code);
  if (uid) {
    try {
      await updateUserProfile(uid, { locale: code });
    } catch {
      // The page still changes language; the account keeps its former one.
    }
  }
  navigation.assign(`${withLocalePrefix(location.pathname, code)}${location.search}${location.hash}`);
}

/** Keys that move a closed native select's choice: the page changes only on Enter after them. */
const BROWSING_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/**
 * The language switcher of every page: the languages in their own names, the current one shown. Picking one
 * with the mouse or touch switches at once; from the keyboard, arrows (or typing) choose and Enter switches,
 * so that browsing the list does not reload the page at each step.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const location = useLocation();
  const id = useId();
  const current = (i18n.resolvedLanguage ?? i18n.language) as UiLocale;
  const [choice, setChoice] = useState<UiLocale>(current);
  const [busy, setBusy] = useState(false);
  const keyed = useRef(false);
  useEffect(() => setChoice(current), [current]);

  const go = (code: UiLocale) => {
    if (code === current || busy) return;
    setBusy(true);
    void switchLanguage(code, location, user?.uid ?? null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSelectElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      keyed.current = false;
      go(choice);
    } else if (BROWSING_KEYS.has(event.key) || event.key.length === 1) {
      keyed.current = true;
    }
  };

  return (
    <div className="language-switcher">
      <label htmlFor={id} className="visually-hidden">
        {t('common:language')}
      </label>
      <select
        id={id}
        value={choice}
        lang={bcp47Of(choice)}
        aria-busy={busy || undefined}
        data-testid="language-switcher"
        onPointerDown={() => {
          keyed.current = false;
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          keyed.current = false;
          if (!busy) setChoice(current);
        }}
        onChange={(event) => {
          const code = event.target.value as UiLocale;
          setChoice(code);
          if (!keyed.current) go(code);
        }}
      >
        {UI_LOCALES.map((code) => (
          <option key={code} value={code} lang={bcp47Of(code)} dir={directionOf(code)}>
            {autonym(code)}
          </option>
        ))}
      </select>
    </div>
  );
}

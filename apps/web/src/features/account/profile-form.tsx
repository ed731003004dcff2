import { bcp47Of, directionOf, type UserProfile } from '@ferry/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { autonym, switchLanguage } from '../../components/language-switcher';
import { useDescribeError } from '../../hooks/use-describe-error';
import { UI_LOCALES, type UiLocale } from '../../i18n';
import { ApiError } from '../../lib/api';
import { updateUserProfile } from '../../lib/auth-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { useToast } from '../toasts/toast-context';

/**
 * The user's own profile in the query cache: the key hooks/use-user-state.ts reads it under (viewer, 'user', id),
 * so that a saved first name reaches the uploader's state at once.
 */
export function profileQueryKey(uid: string): unknown[] {
  return [ACCOUNT_QUERY_KEY, uid, 'user', uid];
}

/** Longest first name the profile takes (UserProfileUpdate in @ferry/core). */
export const FIRSTNAME_MAX = 200;

/**
 * The PATCH body for a first name as typed: trimmed, empty clears it (null); undefined when it did not change,
 * so that nothing is sent.
 */
export function firstnameUpdate(
  typed: string,
  saved: string | null,
): { info: { firstname: string | null } } | undefined {
  const next = typed.trim() === '' ? null : typed.trim();
  return next === (saved ?? null) ? undefined : { info: { firstname: next } };
}

/**
 * First name (the name shown in the header and to recipients, the account's display name) and language.
 * Both are saved with PATCH /api/user/users/{id}; a new language then reloads the page under its prefix, as
 * the header's switcher does.
 */
export function ProfileForm({ uid, profile }: { uid: string; profile: UserProfile }) {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const describe = useDescribeError();
  const queryClient = useQueryClient();
  const location = useLocation();
  const id = useId();
  const [firstname, setFirstname] = useState(profile.info.firstname ?? '');
  const current = (i18n.resolvedLanguage ?? i18n.language) as UiLocale;
  const [language, setLanguage] = useState<UiLocale>(current);
  // The header's language switcher changes it too.
  useEffect(() => setLanguage(current), [current]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const newLanguage = language !== current;
      const update = {
        ...firstnameUpdate(firstname, profile.info.firstname),
        ...(newLanguage ? { locale: language } : {}),
      };
      if (Object.keys(update).length > 0) {
        const saved = await updateUserProfile(uid, update);
        queryClient.setQueryData(profileQueryKey(uid), saved);
        setFirstname(saved.info.firstname ?? '');
        // The page in the account's new language, at the same place.
        if (newLanguage) {
          await switchLanguage(language, location, null);
          return;
        }
        // The display name of the auth state (header menu, sender name) follows.
        void auth.reload();
      }
      toast.show(i18n.t('account:profile_saved'), 'success');
    } catch (error) {
      setProblem(describe(error));
      if (error instanceof ApiError && error.status === 401) void auth.reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="auth-form profile-form"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      data-testid="profile-form"
    >
      <div className="field">
        <label htmlFor={`${id}-firstname`}>{t('account:profile_firstname_label')}</label>
        <input
          id={`${id}-firstname`}
          type="text"
          autoComplete="given-name"
          maxLength={FIRSTNAME_MAX}
          value={firstname}
          aria-describedby={`${id}-firstname-hint`}
          onChange={(event) => setFirstname(event.target.value)}
          data-testid="profile-firstname"
        />
        <p className="field-hint" id={`${id}-firstname-hint`}>
          {t('account:profile_firstname_hint')}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-language`}>{t('account:profile_language_label')}</label>
        <select
          id={`${id}-language`}
          value={language}
          onChange={(event) => setLanguage(event.target.value as UiLocale)}
          aria-describedby={`${id}-language-hint`}
          data-testid="profile-language"
        >
          {UI_LOCALES.map((code) => (
            <option key={code} value={code} lang={bcp47Of(code)} dir={directionOf(code)}>
              {autonym(code)}
            </option>
          ))}
        </select>
        <p className="field-hint" id={`${id}-language-hint`}>
          {t('account:profile_language_hint')}
        </p>
      </div>
      {problem && (
        <p className="notice notice-error" role="alert" data-testid="profile-error">
          <AlertIcon /> {problem}
        </p>
      )}
      <div>
        <button
          type="submit"
          className="button button-primary"
          disabled={busy}
          aria-busy={busy || undefined}
          data-testid="profile-save"
        >
          {t(busy ? 'account:profile_saving' : 'account:profile_save')}
        </button>
      </div>
    </form>
  );
}

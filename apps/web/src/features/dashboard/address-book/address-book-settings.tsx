import type { UserProfile } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../../hooks/use-describe-error';
import { updateUserProfile } from '../../../lib/auth-api';
import { getUserProfile } from '../../../lib/user-api';
import { useAuth } from '../../auth/auth-context';
import { useToast } from '../../toasts/toast-context';
import { ownProfileKey } from '../settings-form';
import { SettingsSwitch } from '../settings-switch';

/** addressBookSettings.autoSave (spec §3): recipients of sent transfers go to the address book. Saved at once. */
export function AddressBookSettings() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const toast = useToast();
  const client = useQueryClient();
  const uid = useAuth().state.user?.uid ?? '';
  // The same cache entry as /dashboard/settings and the uploader's user state.
  const profile = useQuery({
    queryKey: ownProfileKey(uid),
    queryFn: ({ signal }) => getUserProfile(uid, signal),
    enabled: uid !== '',
    staleTime: 5 * 60_000,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!profile.data) return null;
  const autoSave = profile.data.addressBookSettings.autoSave;

  const change = async (next: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const saved: UserProfile = await updateUserProfile(uid, { addressBookSettings: { autoSave: next } });
      client.setQueryData(ownProfileKey(uid), saved);
      toast.show(t(next ? 'account:contacts.auto_save_on' : 'account:contacts.auto_save_off'), 'success');
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="address-book-settings" aria-busy={busy || undefined}>
      <SettingsSwitch
        checked={autoSave}
        label={t('account:contacts.auto_save')}
        hint={t('account:contacts.auto_save_hint')}
        testId="contacts-auto-save"
        onChange={(next) => {
          if (!busy) void change(next);
        }}
      />
      {error && (
        <p className="field-error" role="alert" data-testid="contacts-auto-save-error">
          {error}
        </p>
      )}
    </div>
  );
}

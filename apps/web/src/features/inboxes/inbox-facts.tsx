import type { InboxView } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { LockIcon } from '../../components/icons';
import { CopyField } from './copy-field';

/** What an inbox is at a glance (default, mode, uploads, password) and its address to copy. */
export function InboxFacts({ inbox }: { inbox: InboxView }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="inbox-facts muted" data-testid="inbox-facts">
        {inbox.isDefault && (
          <span className="badge badge-success" data-testid="inbox-default">
            {t('account:inboxes.default')}
          </span>
        )}
        <span>{t(inbox.linkMode === 'S1' ? 'account:inboxes.mode_S1' : 'account:inboxes.mode_S2')}</span>
        <span data-testid="inbox-uploads">{t('account:inboxes.uploads', { count: inbox.uploadCount })}</span>
        {inbox.passwordProtected && (
          <span>
            <LockIcon width={14} height={14} /> {t('account:inboxes.protected')}
          </span>
        )}
      </p>
      <CopyField
        label={t('account:inboxes.address')}
        value={inbox.link}
        copied={t('account:inboxes.address_copied')}
        testId="inbox-address"
      />
    </>
  );
}

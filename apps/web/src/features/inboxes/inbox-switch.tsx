import type { InboxListResponse, InboxView } from '@ferry/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { updateInbox } from '../../lib/inbox-api';
import { useToast } from '../toasts/toast-context';
import { useInboxKeys, useRefreshInboxes } from './use-inboxes';

/**
 * An inbox's on/off switch: off, its page, widgets and /push answer "closed" and no upload gets in; on again
 * only while its kind (S1/S2) is allowed.
 */
export function InboxSwitch({ inbox, testId }: { inbox: InboxView; testId: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const client = useQueryClient();
  const keys = useInboxKeys();
  const refresh = useRefreshInboxes();
  const mutation = useMutation({
    mutationFn: (enabled: boolean) => updateInbox(inbox.inboxId, { enabled }),
    onSuccess: async (saved) => {
      client.setQueryData(keys.inbox(saved.inboxId), saved);
      client.setQueryData<InboxListResponse>(
        keys.list,
        (list) =>
          list && { ...list, items: list.items.map((i) => (i.inboxId === saved.inboxId ? saved : i)) },
      );
      toast.show(
        t(saved.enabled ? 'account:inboxes.switched_on' : 'account:inboxes.switched_off'),
        'success',
      );
      await refresh();
    },
  });
  const error = mutation.error;
  const setting = error instanceof ApiError ? error.details.setting : undefined;
  const checked = mutation.isPending ? mutation.variables : inbox.enabled;
  return (
    <div className="inbox-switch">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={checked}
          checked={checked}
          disabled={mutation.isPending}
          aria-label={t('account:inboxes.switch_label', { title: inbox.title })}
          onChange={(event) => mutation.mutate(event.target.checked)}
          data-testid={testId}
        />
        <span className="switch-track" aria-hidden="true" />
        <span className="switch-text" aria-hidden="true">
          {t(checked ? 'account:inboxes.state_on' : 'account:inboxes.state_off')}
        </span>
      </label>
      {error && (
        <p className="field-error" role="alert" data-testid={`${testId}-error`}>
          {setting === 'allowInboxS1' || setting === 'allowInboxS2'
            ? t('account:inboxes.switch_refused')
            : describe(error)}
        </p>
      )}
    </div>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../../hooks/use-describe-error';
import { ApiError } from '../../../lib/api';
import { CONTACTS_QUERY_KEY } from '../../../lib/contacts-api';
import { useToast } from '../../toasts/toast-context';

/** One change to the address book: its pending state and its error in the user's language. */
export interface ContactsAction {
  run<T>(call: () => Promise<T>, onDone?: (answer: T) => void): void;
  pending: boolean;
  /** The last failure, in words (null when the last run succeeded or none ran). */
  error: string | null;
  reset(): void;
}

/**
 * Describes an address-book error: an address or group name already taken, or a full book, in words that fit
 * (the generic CONFLICT text speaks of a change made meanwhile).
 */
export function useDescribeContactsError(): (error: unknown) => string {
  const { t } = useTranslation();
  const describe = useDescribeError();
  return (error) => {
    if (error instanceof ApiError) {
      const limit = error.details.limit;
      if (error.hasCode('LIMIT_EXCEEDED') && (limit === 'contacts' || limit === 'contactGroups'))
        return t(`account:contacts.full_${limit}`, { max: error.details.max });
      if (error.hasCode('CONFLICT'))
        return t(error.details.groupId ? 'account:groups.name_taken' : 'account:contacts.email_taken');
      if (error.hasCode('PAYLOAD_TOO_LARGE')) return t('account:contacts.import_too_large');
    }
    return describe(error);
  };
}

/**
 * Runs a change: on success a toast says `account:<done>`, every address-book query reads again and `onDone`
 * gets the server's answer; a failure is described where the action is.
 */
export function useContactsAction(done: string): ContactsAction {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeContactsError();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ call }: { call: () => Promise<unknown>; onDone?: (answer: unknown) => void }) => call(),
    onSuccess: async (answer, { onDone }) => {
      toast.show(t(`account:${done}`), 'success');
      onDone?.(answer);
      await client.invalidateQueries({ queryKey: [CONTACTS_QUERY_KEY] });
    },
  });
  return {
    run: (call, onDone) =>
      mutation.mutate({ call, onDone: onDone as ((answer: unknown) => void) | undefined }),
    pending: mutation.isPending,
    error: mutation.error ? describe(mutation.error) : null,
    reset: () => mutation.reset(),
  };
}

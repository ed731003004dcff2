import { TransferDetail } from '@ferry/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../../hooks/use-describe-error';
import { TRANSFERS_QUERY_KEY } from '../../../lib/dashboard-api';
import { useToast } from '../../toasts/toast-context';

export const detailKey = (id: string) => [TRANSFERS_QUERY_KEY, 'detail', id] as const;

/** One action on a transfer: its pending state and its error in the user's language. */
export interface TransferAction {
  run(call: () => Promise<unknown>, onDone?: () => void): void;
  pending: boolean;
  /** The last failure, in words (null when the last run succeeded). */
  error: string | null;
}

/**
 * Runs an action on a transfer: on success the detail takes the server's answer, the list and detail queries
 * are refreshed and a toast says `account:transfer.done_<done>`; a failure is described where the action is.
 */
export function useTransferAction(id: string, done: string): TransferAction {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ call }: { call: () => Promise<unknown>; onDone?: () => void }) => call(),
    onSuccess: async (answer, { onDone }) => {
      const parsed = TransferDetail.safeParse(answer);
      if (parsed.success) client.setQueryData(detailKey(id), parsed.data);
      toast.show(t(`account:transfer.done_${done}`), 'success');
      onDone?.();
      await client.invalidateQueries({ queryKey: [TRANSFERS_QUERY_KEY] });
    },
  });
  return {
    run: (call, onDone) => mutation.mutate({ call, onDone }),
    pending: mutation.isPending,
    error: mutation.error ? describe(mutation.error) : null,
  };
}

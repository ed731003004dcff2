/** The query keys of the operator console: every change refreshes what it may have changed. */
export const OPERATOR_KEY = 'operator';
export const operatorKeys = {
  me: [OPERATOR_KEY, 'me'],
  users: (search: string) => [OPERATOR_KEY, 'users', search],
  user: (uid: string) => [OPERATOR_KEY, 'user', uid],
  subscriptions: [OPERATOR_KEY, 'subscriptions'],
  invoices: (open: boolean) => [OPERATOR_KEY, 'invoices', open],
  figures: [OPERATOR_KEY, 'figures'],
  actions: [OPERATOR_KEY, 'actions'],
  moderation: [OPERATOR_KEY, 'moderation'],
  moderationCase: (transferId: string) => [OPERATOR_KEY, 'moderation-case', transferId],
} as const;

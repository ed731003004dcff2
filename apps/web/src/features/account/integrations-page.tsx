import {
  type ApiTokenCreated,
  ApiTokenCreateRequest,
  type ApiTokenInfo,
  type ApiTokenScope,
  DEFAULT_API_TOKEN_SCOPES,
} from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { ShownOnceSecret } from '../../components/shown-once-secret';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { createApiToken, listApiTokens, revokeApiToken } from '../../lib/auth-api';
import { formatDateTime } from '../../lib/format';
import { ScopePicker, scopeLabelKey } from '../apikeys/scope-picker';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { useToast } from '../toasts/toast-context';
import { AccountLayout } from './account-layout';

/** `/account/integrations`: the personal API tokens section, in the account's frame. */
export function IntegrationsPage() {
  const { t } = useTranslation();
  return (
    <AccountLayout section="integrations" title={t('account:integrations_title')}>
      <ApiTokensSection />
    </AccountLayout>
  );
}

/** Where a token list comes from: the account's personal tokens, or a team's (made by its manager). */
export interface TokenSource {
  /** Tells lists apart in the query cache. */
  key: string;
  list: () => Promise<ApiTokenInfo[]>;
  create: (request: ApiTokenCreateRequest) => Promise<ApiTokenCreated>;
  revoke: (id: string) => Promise<void>;
  /** Title and introduction of the section, and the text of an empty list. */
  titleKey: string;
  introKey: string;
  emptyKey: string;
  testId: string;
}

export const PERSONAL_TOKENS: TokenSource = {
  key: 'tokens',
  list: listApiTokens,
  create: createApiToken,
  revoke: revokeApiToken,
  titleKey: 'account:tokens_title',
  introKey: 'account:tokens_intro',
  emptyKey: 'account:tokens_empty',
  testId: 'tokens-section',
};

/**
 * API tokens (`Authorization: Bearer fry_…`, the CLI's `--api-key` or `ferry login --token`): create one with a
 * name and scopes (the token is shown once), see when each was last used, revoke. Personal tokens by default; a
 * team's tokens with the team's source.
 */
export function ApiTokensSection({ source = PERSONAL_TOKENS }: { source?: TokenSource }) {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const describe = useDescribeError();
  const queryClient = useQueryClient();
  const id = useId();
  const queryKey = [ACCOUNT_QUERY_KEY, auth.user?.uid ?? '', source.key];
  const tokens = useQuery({ queryKey, queryFn: source.list });
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [scopes, setScopes] = useState<ApiTokenScope[]>([...DEFAULT_API_TOKEN_SCOPES]);
  const [scopesError, setScopesError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);

  const onFailure = (error: unknown) => {
    toast.show(describe(error), 'error');
    if (error instanceof ApiError && error.status === 401) void auth.reload();
  };

  const create = useMutation({
    mutationFn: source.create,
    onSuccess: (token) => {
      setCreated(token);
      setName('');
      setScopes([...DEFAULT_API_TOKEN_SCOPES]);
      void queryClient.invalidateQueries({ queryKey });
    },
    onError: onFailure,
  });

  const revoke = useMutation({
    mutationFn: (token: ApiTokenInfo) => source.revoke(token.id),
    onSuccess: (_, token) => {
      toast.show(t('account:token_revoked', { name: token.name }), 'success');
      if (created?.id === token.id) setCreated(null);
      void queryClient.invalidateQueries({ queryKey });
    },
    onError: onFailure,
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const parsed = ApiTokenCreateRequest.safeParse({ name, scopes });
    const badName = !parsed.success && parsed.error.issues.some((i) => i.path[0] === 'name');
    setNameError(badName ? t('account:token_name_required') : null);
    setScopesError(scopes.length === 0 ? t('apikeys:scopes_required') : null);
    if (!parsed.success) {
      if (badName) nameInput.current?.focus();
      return;
    }
    create.mutate({ name: parsed.data.name, scopes: parsed.data.scopes });
  };

  const listError = tokens.error;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new error matters
  useEffect(() => {
    if (listError instanceof ApiError && listError.status === 401) void auth.reload();
  }, [listError]);

  const confirmRevoke = (token: ApiTokenInfo) => {
    if (window.confirm(t('account:token_revoke_confirm', { name: token.name }))) revoke.mutate(token);
  };

  return (
    <section aria-labelledby={`${id}-title`} data-testid={source.testId}>
      <h2 className="section-title" id={`${id}-title`}>
        {t(source.titleKey)}
      </h2>
      <p className="muted">{t(source.introKey)}</p>
      {created && (
        <ShownOnceSecret
          title={t('account:token_created_title', { name: created.name })}
          once={t('account:token_created_once')}
          label={t('account:token_label')}
          value={created.token}
          hint={t('account:token_usage')}
          copied={t('account:token_copied')}
          testIds={{
            panel: 'token-created-panel',
            value: 'token-created',
            copy: 'token-copy',
            done: 'token-done',
          }}
          onDone={() => {
            setCreated(null);
            // The mutation's state held the secret too.
            create.reset();
            nameInput.current?.focus();
          }}
        />
      )}
      <form className="token-form" noValidate onSubmit={onSubmit} data-testid="token-form">
        <LabelledField label={t('account:token_name_label')} error={nameError}>
          {(field) => (
            <input
              {...field}
              ref={nameInput}
              type="text"
              maxLength={200}
              autoComplete="off"
              value={name}
              placeholder={t('account:token_name_placeholder')}
              onChange={(event) => setName(event.target.value)}
              data-testid="token-name"
            />
          )}
        </LabelledField>
        <ScopePicker value={scopes} onChange={setScopes} error={scopesError} />
        <button
          type="submit"
          className="button button-primary"
          disabled={create.isPending}
          aria-busy={create.isPending || undefined}
          data-testid="token-create"
        >
          {t('account:token_create')}
        </button>
      </form>
      {tokens.isPending && (
        <p className="muted" role="status" aria-busy="true">
          {t('account:loading')}
        </p>
      )}
      {tokens.error && (
        <div className="notice notice-error" role="alert" data-testid="tokens-error">
          <p>{describe(tokens.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void tokens.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {tokens.data?.length === 0 && (
        <p className="muted" data-testid="tokens-empty">
          {t(source.emptyKey)}
        </p>
      )}
      {tokens.data && tokens.data.length > 0 && (
        <ul className="item-list" aria-label={t(source.titleKey)} data-testid="token-list">
          {tokens.data.map((token) => (
            <li key={token.id} className="item-row" data-testid="token-row" data-token-id={token.id}>
              <div className="item-main">
                <p className="item-title">{token.name}</p>
                <dl className="item-facts">
                  <div>
                    <dt>{t('account:token_prefix')}</dt>
                    <dd className="mono">{token.prefix}…</dd>
                  </div>
                  <div>
                    <dt>{t('apikeys:scopes_label')}</dt>
                    <dd data-testid="token-scopes-shown">
                      {token.scopes.map((scope) => t(scopeLabelKey(scope))).join(', ')}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('account:token_created_at')}</dt>
                    <dd>{formatDateTime(token.createdAt, i18n.language)}</dd>
                  </div>
                  <div>
                    <dt>{t('account:token_last_used')}</dt>
                    <dd data-testid="token-last-used">
                      {token.lastUsedAt
                        ? formatDateTime(token.lastUsedAt, i18n.language)
                        : t('account:never')}
                    </dd>
                  </div>
                </dl>
              </div>
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={revoke.isPending && revoke.variables?.id === token.id}
                aria-label={t('account:token_revoke_label', { name: token.name })}
                onClick={() => confirmRevoke(token)}
                data-testid="token-revoke"
              >
                {t('account:token_revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

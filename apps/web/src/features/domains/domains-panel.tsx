import type { CustomDomainView, DomainsView } from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import * as domainsApi from '../../lib/domains-api';
import { ACCOUNT_QUERY_KEY } from '../auth/auth-context';
import './domains.css';

/**
 * An account's or team's own addresses (spec §3 Theme subdomainName and domain): the subdomain of the server's base
 * domain, claimed by name, and custom domains, each with the DNS TXT record that proves it, a verify button and its
 * status. `ownerId` is the account's uid, or the team manager's.
 */
export function DomainsPanel({ ownerId }: { ownerId: string }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const key = [ACCOUNT_QUERY_KEY, 'domains', ownerId];
  const domains = useQuery({ queryKey: key, queryFn: () => domainsApi.listDomains(ownerId) });
  if (domains.isPending)
    return (
      <p className="muted" aria-busy="true">
        {t('account:loading')}
      </p>
    );
  if (domains.isError)
    return (
      <p className="notice notice-error" role="alert">
        {describe(domains.error)}
      </p>
    );
  const view = domains.data;
  return (
    <section className="domains-panel" data-testid="domains-panel" aria-labelledby="domains-title">
      <h2 id="domains-title">{t('account:domains.title')}</h2>
      {view.baseDomain === null ? (
        <p className="muted" data-testid="domains-disabled">
          {t('account:domains.disabled')}
        </p>
      ) : (
        <>
          <SubdomainForm ownerId={ownerId} view={view} queryKey={key} />
          <CustomDomains ownerId={ownerId} view={view} queryKey={key} />
        </>
      )}
    </section>
  );
}

type Props = { ownerId: string; view: DomainsView; queryKey: string[] };

/** The message of a refused subdomain name: the rule it breaks when the server says which. */
function useNameError(): (error: unknown) => string {
  const { t } = useTranslation();
  const describe = useDescribeError();
  return (error) => {
    const problem = error instanceof ApiError ? error.details.problem : undefined;
    if (
      typeof problem === 'string' &&
      ['length', 'characters', 'hyphen', 'punycode', 'reserved'].includes(problem)
    )
      return t(`account:domains.problem_${problem}`);
    return describe(error);
  };
}

function SubdomainForm({ ownerId, view, queryKey }: Props) {
  const { t } = useTranslation();
  const nameError = useNameError();
  const queryClient = useQueryClient();
  const [name, setName] = useState(view.subdomain?.name ?? '');
  const save = useMutation({
    mutationFn: (next: string | null) =>
      next === null ? domainsApi.releaseSubdomain(ownerId) : domainsApi.claimSubdomain(ownerId, next),
    onSuccess: (next) => {
      queryClient.setQueryData(queryKey, next);
      setName(next.subdomain?.name ?? '');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(name.trim());
  };
  return (
    <form className="domains-section" onSubmit={submit} noValidate>
      <h3>{t('account:domains.subdomain_title')}</h3>
      <LabelledField
        label={t('account:domains.subdomain_label')}
        hint={t('account:domains.subdomain_hint', { base: view.baseDomain })}
        error={save.isError ? nameError(save.error) : null}
      >
        {(field) => (
          <div className="domains-name">
            <input
              {...field}
              type="text"
              inputMode="url"
              autoCapitalize="none"
              autoComplete="off"
              spellCheck={false}
              maxLength={63}
              value={name}
              onChange={(e) => setName(e.target.value.toLowerCase())}
              data-testid="subdomain-name"
            />
            <span className="domains-suffix" aria-hidden="true">
              .{view.baseDomain}
            </span>
          </div>
        )}
      </LabelledField>
      {view.subdomain && (
        <p data-testid="subdomain-address">
          {t('account:domains.subdomain_address')}{' '}
          <a href={view.subdomain.url} rel="noopener">
            {view.subdomain.host}
          </a>
        </p>
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={save.isPending}
          data-testid="subdomain-save"
        >
          {t('account:domains.subdomain_save')}
        </button>
        {view.subdomain && (
          <button
            type="button"
            className="button"
            disabled={save.isPending}
            onClick={() => save.mutate(null)}
            data-testid="subdomain-release"
          >
            {t('account:domains.subdomain_release')}
          </button>
        )}
      </div>
    </form>
  );
}

function CustomDomains({ ownerId, view, queryKey }: Props) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const add = useMutation({
    mutationFn: (value: string) => domainsApi.addCustomDomain(ownerId, value),
    onSuccess: async () => {
      setDomain('');
      await refresh();
    },
  });
  return (
    <div className="domains-section">
      <h3>{t('account:domains.custom_title')}</h3>
      <p className="muted">{t('account:domains.custom_intro')}</p>
      {view.customDomains.length === 0 ? (
        <p className="muted" data-testid="custom-domains-empty">
          {t('account:domains.custom_empty')}
        </p>
      ) : (
        <ul className="domains-list">
          {view.customDomains.map((d) => (
            <CustomDomainItem key={d.domain} ownerId={ownerId} item={d} onChange={refresh} />
          ))}
        </ul>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate(domain.trim());
        }}
        noValidate
      >
        <LabelledField
          label={t('account:domains.custom_label')}
          hint={t('account:domains.custom_hint')}
          error={add.isError ? describe(add.error) : null}
        >
          {(field) => (
            <input
              {...field}
              type="text"
              inputMode="url"
              autoCapitalize="none"
              autoComplete="off"
              spellCheck={false}
              maxLength={253}
              placeholder="files.example.com"
              value={domain}
              onChange={(e) => setDomain(e.target.value)}
              data-testid="custom-domain-input"
            />
          )}
        </LabelledField>
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={add.isPending}
            data-testid="custom-domain-add"
          >
            {t('account:domains.custom_add')}
          </button>
        </div>
      </form>
    </div>
  );
}

function CustomDomainItem({
  ownerId,
  item,
  onChange,
}: {
  ownerId: string;
  item: CustomDomainView;
  onChange: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const [copied, setCopied] = useState<'name' | 'value' | null>(null);
  const verify = useMutation({
    mutationFn: () => domainsApi.verifyCustomDomain(ownerId, item.domain),
    onSettled: onChange,
  });
  const remove = useMutation({
    mutationFn: () => domainsApi.removeCustomDomain(ownerId, item.domain),
    onSuccess: onChange,
  });
  const copy = (what: 'name' | 'value') =>
    navigator.clipboard.writeText(item.record[what]).then(
      () => setCopied(what),
      () => setCopied(null),
    );
  const slug = item.domain.replace(/[^a-z0-9]+/g, '-');
  return (
    <li className="domains-item" data-testid={`custom-domain-${slug}`}>
      <div className="domains-item-head">
        <strong>{item.domain}</strong>
        <span className={`domains-status domains-status-${item.status}`} data-testid="custom-domain-status">
          {t(`account:domains.status_${item.status}`)}
        </span>
      </div>
      {item.status !== 'verified' && (
        <>
          <p>{t('account:domains.record_intro')}</p>
          <dl className="domains-record">
            <dt>{t('account:domains.record_name')}</dt>
            <dd>
              <code data-testid="custom-domain-record-name">{item.record.name}</code>
              <button type="button" className="button button-small" onClick={() => void copy('name')}>
                {t('account:domains.copy')}
              </button>
            </dd>
            <dt>{t('account:domains.record_type')}</dt>
            <dd>
              <code>{item.record.type}</code>
            </dd>
            <dt>{t('account:domains.record_value')}</dt>
            <dd>
              <code data-testid="custom-domain-record-value">{item.record.value}</code>
              <button type="button" className="button button-small" onClick={() => void copy('value')}>
                {t('account:domains.copy')}
              </button>
            </dd>
          </dl>
          <p className="visually-hidden" role="status">
            {copied ? t('account:domains.copied') : ''}
          </p>
        </>
      )}
      {verify.isError && (
        <p className="notice notice-error" role="alert">
          {describe(verify.error)}
        </p>
      )}
      {remove.isError && (
        <p className="notice notice-error" role="alert">
          {describe(remove.error)}
        </p>
      )}
      <div className="form-actions">
        {item.status !== 'verified' && (
          <button
            type="button"
            className="button button-primary"
            disabled={verify.isPending}
            onClick={() => verify.mutate()}
            data-testid="custom-domain-verify"
          >
            {t('account:domains.verify')}
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
          data-testid="custom-domain-remove"
        >
          {t('account:domains.remove')}
        </button>
      </div>
    </li>
  );
}

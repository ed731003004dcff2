import type { TeamAuthPolicy } from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { useAuth } from '../auth/auth-context';
import { PageFrame } from '../dashboard/page-frame';
import { SettingsSwitch } from '../dashboard/settings-switch';
import { getTeamAuthPolicy, putTeamAuthPolicy } from './team-api';
import { teamIdOf } from './transfer-policy-page';
import './team-admin.css';

/** The domains typed in the text area: one per line (or separated by commas or spaces), lower case, once each. */
export function parseDomains(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((d) => d.trim().replace(/^@/, '').toLowerCase())
        .filter((d) => d !== ''),
    ),
  ];
}

/**
 * `/dashboard/admin/authentication`: the team's authentication policy — allowed e-mail domains of members, a
 * second factor required for password sign-ins, the sign-in methods members may use. For the manager and members
 * with USER_MANAGER (the server refuses anyone else).
 */
export function AuthenticationPolicyPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const teamId = teamIdOf(state);
  const client = useQueryClient();
  const key = ['team-auth-policy', teamId];
  const loaded = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => getTeamAuthPolicy(teamId, signal),
    enabled: teamId !== '',
  });
  const [form, setForm] = useState<(TeamAuthPolicy & { domainsText: string }) | null>(null);
  useEffect(() => {
    if (loaded.data && !form)
      setForm({ ...loaded.data.policy, domainsText: loaded.data.policy.allowedEmailDomains.join('\n') });
  }, [loaded.data, form]);
  const save = useMutation({
    mutationFn: (policy: TeamAuthPolicy) => putTeamAuthPolicy(teamId, policy),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      setForm({ ...saved.policy, domainsText: saved.policy.allowedEmailDomains.join('\n') });
    },
  });
  const available = loaded.data?.availableMethods ?? [];
  const set = (patch: Partial<TeamAuthPolicy & { domainsText: string }>) => {
    save.reset();
    setForm((current) => (current ? { ...current, ...patch } : current));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    const { domainsText, ...policy } = form;
    save.mutate({ ...policy, allowedEmailDomains: parseDomains(domainsText) });
  };
  const methodsAll = form?.signInMethods === null;
  const methodOn = (m: string) => methodsAll || (form?.signInMethods ?? []).includes(m);
  const toggleMethod = (m: string, on: boolean) => {
    const current = form?.signInMethods ?? available;
    const next = on ? [...new Set([...current, m])] : current.filter((x) => x !== m);
    // Every method on is "all" (null): providers configured later are allowed too.
    set({ signInMethods: available.every((a) => next.includes(a)) ? null : next });
  };
  return (
    <PageFrame
      title={t('teamPolicies:auth.title')}
      intro={<p className="muted">{t('teamPolicies:auth.intro')}</p>}
      testId="page-admin-authentication"
      loading={loaded.isPending && teamId !== ''}
      loadingText={t('teamPolicies:loading')}
      error={loaded.error}
      errorTestId="auth-policy-load-error"
    >
      {form && (
        <form onSubmit={onSubmit} noValidate data-testid="auth-policy-form">
          <LabelledField
            label={t('teamPolicies:auth.domains_label')}
            hint={t('teamPolicies:auth.domains_hint')}
          >
            {(props) => (
              <textarea
                {...props}
                rows={4}
                value={form.domainsText}
                onChange={(event) => set({ domainsText: event.target.value })}
                data-testid="auth-domains"
              />
            )}
          </LabelledField>
          <SettingsSwitch
            checked={form.requireSecondFactor}
            label={t('teamPolicies:auth.second_factor_label')}
            hint={t('teamPolicies:auth.second_factor_hint')}
            testId="auth-second-factor"
            onChange={(checked) => set({ requireSecondFactor: checked })}
          />
          <fieldset className="settings-group">
            <legend>{t('teamPolicies:auth.methods_label')}</legend>
            <p className="field-hint">{t('teamPolicies:auth.methods_hint')}</p>
            {available.map((m) => (
              <SettingsSwitch
                key={m}
                checked={methodOn(m)}
                label={m === 'password' ? t('teamPolicies:auth.method_password') : m}
                testId={`auth-method-${m}`}
                onChange={(checked) => toggleMethod(m, checked)}
              />
            ))}
          </fieldset>
          {form.signInMethods !== null && form.signInMethods.length === 0 && (
            <p className="field-error" role="alert" data-testid="auth-methods-empty">
              {t('teamPolicies:auth.methods_empty')}
            </p>
          )}
          {save.error && (
            <div className="notice notice-error" role="alert" data-testid="auth-policy-save-error">
              <p>{describe(save.error)}</p>
            </div>
          )}
          {save.isSuccess && (
            <p className="notice notice-success" role="status" data-testid="auth-policy-saved">
              {t('teamPolicies:saved')}
            </p>
          )}
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending || (form.signInMethods !== null && form.signInMethods.length === 0)}
            data-testid="auth-policy-save"
          >
            {t('teamPolicies:save')}
          </button>
        </form>
      )}
    </PageFrame>
  );
}

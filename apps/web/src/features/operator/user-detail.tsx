import { type OperatorUser, PLAN_CODES, type SetPlanRequest } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDate, formatDateTime, formatSize } from '../../lib/format';
import { getOperatorUser, setUserPlan, suspendUser, unsuspendUser } from '../../lib/operator-api';
import { FieldError } from '../auth/field-error';
import { useToast } from '../toasts/toast-context';
import { ConfirmDialog } from './confirm-dialog';
import { OPERATOR_KEY, operatorKeys } from './operator-keys';

const PLAN_CHOICES = ['NONE', ...PLAN_CODES] as const;

/** One account: what the console knows of it, suspend / unsuspend (confirmed first), and its plan. */
export function UserDetail({ uid, onClose }: { uid: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const user = useQuery({
    queryKey: operatorKeys.user(uid),
    queryFn: ({ signal }) => getOperatorUser(uid, signal),
  });
  const describe = useDescribeError();

  return (
    <section className="operator-detail" aria-labelledby={`${id}-title`} data-testid="operator-user-detail">
      <div className="operator-detail-head">
        <h2 id={`${id}-title`} className="operator-title">
          {user.data?.email ?? t('operator:user_title')}
        </h2>
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={onClose}
          data-testid="operator-user-close"
        >
          {t('operator:close')}
        </button>
      </div>
      {user.isPending && <p aria-busy="true">{t('operator:loading')}</p>}
      {user.isError && (
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(user.error)}
        </p>
      )}
      {user.data && (
        <>
          <dl className="operator-facts">
            <dt>{t('operator:col_name')}</dt>
            <dd>{user.data.firstname ?? '–'}</dd>
            <dt>{t('operator:col_plan')}</dt>
            <dd data-testid="operator-user-plan">
              {t(`auth:plan_${user.data.planType}`)}
              {user.data.planCode ? ` (${user.data.planCode})` : ''}
            </dd>
            <dt>{t('operator:col_ends')}</dt>
            <dd>
              {user.data.planEndsAt ? formatDate(user.data.planEndsAt, i18n.language) : t('operator:no_end')}
            </dd>
            <dt>{t('operator:col_seats')}</dt>
            <dd>{user.data.licences ?? '–'}</dd>
            <dt>{t('operator:col_storage')}</dt>
            <dd>{formatSize(user.data.storageUsed, i18n.language)}</dd>
            <dt>{t('operator:col_last_signin')}</dt>
            <dd>
              {user.data.lastLoginAt
                ? formatDateTime(user.data.lastLoginAt, i18n.language)
                : t('operator:never')}
            </dd>
            <dt>{t('operator:col_state')}</dt>
            <dd data-testid="operator-user-state">{stateOf(user.data, t)}</dd>
          </dl>
          <Suspension user={user.data} />
          <SetPlanForm user={user.data} />
        </>
      )}
    </section>
  );
}

export function stateOf(u: OperatorUser, t: (key: string) => string): string {
  if (u.suspended) return t('operator:state_suspended');
  return t(u.emailVerified ? 'operator:state_active' : 'operator:state_unverified');
}

/** After a change to an account: its detail as answered, and the lists, figures and journal asked anew. */
function useUserChanged() {
  const client = useQueryClient();
  return (updated: OperatorUser) => {
    client.setQueryData(operatorKeys.user(updated.uid), updated);
    void client.invalidateQueries({
      predicate: (q) => q.queryKey[0] === OPERATOR_KEY && q.queryKey[1] !== 'user' && q.queryKey[1] !== 'me',
    });
  };
}

function Suspension({ user }: { user: OperatorUser }) {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const changed = useUserChanged();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const suspend = !user.suspended;

  const confirm = async () => {
    setBusy(true);
    try {
      changed(await (suspend ? suspendUser(user.uid) : unsuspendUser(user.uid)));
      toast.show(
        t(suspend ? 'operator:suspended_done' : 'operator:unsuspended_done', { email: user.email }),
        'success',
      );
      setAsking(false);
    } catch (error) {
      toast.show(describe(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="operator-actions">
      <button
        type="button"
        className={`button ${suspend ? 'button-secondary' : 'button-primary'}`}
        onClick={() => setAsking(true)}
        data-testid={suspend ? 'operator-suspend' : 'operator-unsuspend'}
      >
        {t(suspend ? 'operator:suspend' : 'operator:unsuspend')}
      </button>
      {asking && (
        <ConfirmDialog
          title={t(suspend ? 'operator:suspend_title' : 'operator:unsuspend_title', { email: user.email })}
          text={t(suspend ? 'operator:suspend_text' : 'operator:unsuspend_text')}
          confirmLabel={t(suspend ? 'operator:suspend' : 'operator:unsuspend')}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(false)}
          testId="operator-confirm"
        />
      )}
    </div>
  );
}

function SetPlanForm({ user }: { user: OperatorUser }) {
  const { t } = useTranslation();
  const id = useId();
  const toast = useToast();
  const describe = useDescribeError();
  const changed = useUserChanged();
  const [planCode, setPlanCode] = useState<(typeof PLAN_CHOICES)[number]>(user.planCode ?? 'NONE');
  const [until, setUntil] = useState(user.planEndsAt?.slice(0, 10) ?? '');
  const [seats, setSeats] = useState(user.licences ? String(user.licences) : '');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [seatsProblem, setSeatsProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setProblem(null);
    setSeatsProblem(null);
    const request: SetPlanRequest = { planCode, until: planCode === 'NONE' || !until ? null : until };
    if (planCode === 'CUSTOM' && seats.trim() !== '') {
      const n = Number(seats);
      if (!Number.isInteger(n) || n < 1 || n > 100_000) {
        setSeatsProblem(t('operator:seats_invalid'));
        return;
      }
      request.seats = n;
    }
    setBusy(true);
    try {
      changed(await setUserPlan(user.uid, request));
      toast.show(t('operator:plan_saved', { email: user.email }), 'success');
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="operator-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      data-testid="operator-plan-form"
    >
      <h3 className="operator-subtitle">{t('operator:plan_title')}</h3>
      <div className="field">
        <label htmlFor={`${id}-code`}>{t('operator:plan_code_label')}</label>
        <select
          id={`${id}-code`}
          value={planCode}
          onChange={(event) => setPlanCode(event.target.value as (typeof PLAN_CHOICES)[number])}
          data-testid="operator-plan-code"
        >
          {PLAN_CHOICES.map((code) => (
            <option key={code} value={code}>
              {code === 'NONE' ? t('operator:plan_none') : code}
            </option>
          ))}
        </select>
      </div>
      {planCode !== 'NONE' && (
        <div className="field">
          <label htmlFor={`${id}-until`}>{t('operator:plan_until_label')}</label>
          <input
            id={`${id}-until`}
            type="date"
            value={until}
            aria-describedby={`${id}-until-hint`}
            onChange={(event) => setUntil(event.target.value)}
            data-testid="operator-plan-until"
          />
          <p className="field-hint" id={`${id}-until-hint`}>
            {t('operator:plan_until_hint')}
          </p>
        </div>
      )}
      {planCode === 'CUSTOM' && (
        <div className="field">
          <label htmlFor={`${id}-seats`}>{t('operator:plan_seats_label')}</label>
          <input
            id={`${id}-seats`}
            type="number"
            inputMode="numeric"
            min={1}
            max={100000}
            value={seats}
            aria-invalid={seatsProblem ? true : undefined}
            aria-describedby={seatsProblem ? `${id}-seats-error` : undefined}
            onChange={(event) => setSeats(event.target.value)}
            data-testid="operator-plan-seats"
          />
          <FieldError id={`${id}-seats-error`} text={seatsProblem} testId="operator-plan-seats-error" />
        </div>
      )}
      {problem && (
        <p className="notice notice-error" role="alert" data-testid="operator-plan-error">
          <AlertIcon /> {problem}
        </p>
      )}
      <div>
        <button
          type="submit"
          className="button button-primary"
          disabled={busy}
          aria-busy={busy || undefined}
          data-testid="operator-plan-save"
        >
          {t('operator:plan_save')}
        </button>
      </div>
    </form>
  );
}

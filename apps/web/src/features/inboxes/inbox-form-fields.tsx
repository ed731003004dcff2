import { defaultTransferValidityDays, RECEIVE_LINK_MODES, type ReceiveLinkMode } from '@ferry/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '../../components/password-input';
import { formatSize } from '../../lib/format';
import {
  type InboxCaps,
  type InboxDraft,
  type InboxProblems,
  linkModeAllowed,
  type SizeUnit,
  slugFromTitle,
} from './inbox-form-state';

export interface SectionProps {
  draft: InboxDraft;
  caps: InboxCaps;
  problems: InboxProblems;
  onChange: (patch: Partial<InboxDraft>) => void;
}

const MODE_TEXT: Record<ReceiveLinkMode, { label: string; hint: string; off: string; offManaged: string }> = {
  S1: {
    label: 'account:inboxes.mode_S1',
    hint: 'account:inboxes.mode_S1_hint',
    off: 'account:inboxes.mode_S1_off',
    offManaged: 'account:inboxes.mode_S1_off_managed',
  },
  S2: {
    label: 'account:inboxes.mode_S2',
    hint: 'account:inboxes.mode_S2_hint',
    off: 'account:inboxes.mode_S2_off',
    offManaged: 'account:inboxes.mode_S2_off_managed',
  },
};

function FieldError({ id, text, testId }: { id: string; text: string | null; testId: string }) {
  if (!text) return null;
  return (
    <p id={id} className="field-error" data-testid={testId}>
      {text}
    </p>
  );
}

/** Title, address (`/i/{slug}`, made from the title until the owner types one) and description. */
export function AboutFields({ draft, problems, onChange }: SectionProps) {
  const { t } = useTranslation();
  const id = useId();
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const titleError =
    problems.title === 'required'
      ? t('account:inboxes.title_required')
      : problems.title === 'too_long'
        ? t('account:inboxes.too_long', { max: 200 })
        : null;
  const slugError =
    problems.slug === 'taken'
      ? t('account:inboxes.slug_taken')
      : problems.slug === 'invalid'
        ? t('account:inboxes.slug_invalid')
        : null;
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-title`}>{t('account:inboxes.title_label')}</label>
        <input
          id={`${id}-title`}
          type="text"
          value={draft.title}
          aria-invalid={titleError ? true : undefined}
          aria-describedby={titleError ? `${id}-title-error` : undefined}
          onChange={(event) => {
            const title = event.target.value;
            onChange(draft.slugTouched ? { title } : { title, slug: slugFromTitle(title) });
          }}
          data-testid="inbox-title"
        />
        <FieldError id={`${id}-title-error`} text={titleError} testId="inbox-title-error" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-slug`}>{t('account:inboxes.slug_label')}</label>
        <div className="slug-input">
          <span className="slug-prefix" aria-hidden="true">
            {/* Cut at its start when narrow (rtl), read in its own order (bdi). */}
            <bdi>{origin}/i/</bdi>
          </span>
          <input
            id={`${id}-slug`}
            type="text"
            className="mono"
            value={draft.slug}
            maxLength={40}
            autoCapitalize="off"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={slugError ? true : undefined}
            aria-describedby={`${id}-slug-hint${slugError ? ` ${id}-slug-error` : ''}`}
            onChange={(event) =>
              onChange({ slug: event.target.value.toLowerCase().replace(/\s+/g, '-'), slugTouched: true })
            }
            data-testid="inbox-slug"
          />
        </div>
        <p id={`${id}-slug-hint`} className="field-hint">
          {t('account:inboxes.slug_hint', { address: `${origin}/i/${draft.slug || '…'}` })}
        </p>
        <FieldError id={`${id}-slug-error`} text={slugError} testId="inbox-slug-error" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>{t('account:inboxes.description_label')}</label>
        <textarea
          id={`${id}-description`}
          rows={3}
          value={draft.description}
          aria-invalid={problems.description ? true : undefined}
          aria-describedby={`${id}-description-hint`}
          onChange={(event) => onChange({ description: event.target.value })}
          data-testid="inbox-description"
        />
        <p id={`${id}-description-hint`} className={problems.description ? 'field-error' : 'field-hint'}>
          {problems.description
            ? t('account:inboxes.too_long', { max: 5000 })
            : t('account:inboxes.description_hint')}
        </p>
      </div>
    </>
  );
}

/** S1 (uploaders give their e-mail, get a receipt) or S2 (a link); a mode the settings turn off says why. */
export function ModeFields({ draft, caps, problems, onChange }: SectionProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <fieldset className="fieldset inbox-modes" data-testid="inbox-mode">
      <legend className="field-label">{t('account:inboxes.mode_legend')}</legend>
      {RECEIVE_LINK_MODES.map((mode) => {
        const allowed = linkModeAllowed(mode, caps);
        const text = MODE_TEXT[mode];
        return (
          <label key={mode} className={`inbox-mode${allowed ? '' : ' is-disabled'}`}>
            <input
              type="radio"
              name={`${id}-mode`}
              value={mode}
              checked={draft.linkMode === mode}
              disabled={!allowed && draft.linkMode !== mode}
              aria-describedby={`${id}-${mode}-hint`}
              onChange={() => onChange({ linkMode: mode })}
              data-testid={`inbox-mode-${mode}`}
            />
            <span className="switch-text">
              <span>{t(text.label)}</span>
              <span id={`${id}-${mode}-hint`} className="field-hint">
                {allowed ? t(text.hint) : t(caps.managed ? text.offManaged : text.off)}
              </span>
            </span>
          </label>
        );
      })}
      {problems.linkMode && (
        <p className="field-error" data-testid="inbox-mode-error">
          {t('account:inboxes.mode_not_allowed')}
        </p>
      )}
    </fieldset>
  );
}

/** The password (set, change, remove) as the team's rules allow it. */
export function PasswordFields({ draft, caps, problems, onChange }: SectionProps) {
  const { t } = useTranslation();
  const id = useId();
  const usable = caps.passwordOpt || caps.requirePassword;
  if (!usable && !draft.passwordProtected) return null;
  const error =
    problems.password === 'required'
      ? t('account:inboxes.password_required')
      : problems.password === 'too_long'
        ? t('account:inboxes.too_long', { max: 256 })
        : null;
  const has = draft.passwordProtected && !draft.removePassword;
  return (
    <div className="field" data-testid="inbox-password-field">
      <label htmlFor={`${id}-password`}>
        {t(draft.passwordProtected ? 'account:inboxes.password_new' : 'account:inboxes.password_label')}
      </label>
      {usable && (
        <PasswordInput
          id={`${id}-password`}
          value={draft.password}
          autoComplete="new-password"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-password-hint${error ? ` ${id}-password-error` : ''}`}
          onValueChange={(password) => onChange({ password, removePassword: false })}
          testId="inbox-password"
        />
      )}
      <p id={`${id}-password-hint`} className="field-hint" data-testid="inbox-password-state">
        {draft.removePassword
          ? t('account:inboxes.password_removing')
          : has
            ? t('account:inboxes.password_set')
            : caps.requirePassword
              ? t('account:inboxes.password_team_required')
              : t('account:inboxes.password_hint')}
      </p>
      <FieldError id={`${id}-password-error`} text={error} testId="inbox-password-error" />
      {draft.passwordProtected && !caps.requirePassword && (
        <div>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => onChange({ removePassword: !draft.removePassword, password: '' })}
            data-testid="inbox-password-remove"
          >
            {t(draft.removePassword ? 'account:inboxes.password_keep' : 'account:inboxes.password_remove')}
          </button>
        </div>
      )}
    </div>
  );
}

/** The largest upload (≤ the plan's) and how long received files stay (≤ the plan's validity). */
export function LimitFields({ draft, caps, problems, onChange }: SectionProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const sizeError =
    problems.maxUpload === 'invalid'
      ? t('account:inboxes.size_invalid')
      : problems.maxUpload === 'too_big'
        ? t('account:inboxes.size_too_big', { max: formatSize(caps.maxUploadBytes, i18n.language) })
        : null;
  const daysError =
    problems.validityDays === 'invalid'
      ? t('account:inboxes.days_invalid')
      : problems.validityDays === 'too_long'
        ? t('account:inboxes.days_too_long', { max: caps.validityDays })
        : null;
  const defaultDays = defaultTransferValidityDays(caps.validityDays);
  return (
    <div className="field-grid">
      <div className="field">
        <label htmlFor={`${id}-size`}>{t('account:inboxes.size_label')}</label>
        <div className="size-input">
          <input
            id={`${id}-size`}
            type="text"
            inputMode="decimal"
            value={draft.maxUpload}
            placeholder={formatSize(caps.maxUploadBytes, i18n.language)}
            aria-invalid={sizeError ? true : undefined}
            aria-describedby={`${id}-size-hint${sizeError ? ` ${id}-size-error` : ''}`}
            onChange={(event) => onChange({ maxUpload: event.target.value })}
            data-testid="inbox-size"
          />
          <select
            aria-label={t('account:inboxes.size_unit')}
            value={draft.maxUploadUnit}
            onChange={(event) => onChange({ maxUploadUnit: event.target.value as SizeUnit })}
            data-testid="inbox-size-unit"
          >
            <option value="MB">MB</option>
            <option value="GB">GB</option>
          </select>
        </div>
        <p id={`${id}-size-hint`} className="field-hint">
          {t('account:inboxes.size_hint', { max: formatSize(caps.maxUploadBytes, i18n.language) })}
        </p>
        <FieldError id={`${id}-size-error`} text={sizeError} testId="inbox-size-error" />
      </div>
      {caps.availabilityOpt && (
        <div className="field">
          <label htmlFor={`${id}-days`}>{t('account:inboxes.days_label')}</label>
          <input
            id={`${id}-days`}
            type="number"
            min={1}
            max={caps.validityDays}
            step={1}
            value={draft.validityDays}
            placeholder={String(defaultDays)}
            aria-invalid={daysError ? true : undefined}
            aria-describedby={`${id}-days-hint${daysError ? ` ${id}-days-error` : ''}`}
            onChange={(event) => onChange({ validityDays: event.target.value })}
            data-testid="inbox-days"
          />
          <p id={`${id}-days-hint`} className="field-hint">
            {t('account:inboxes.days_hint', { max: caps.validityDays, count: defaultDays })}
          </p>
          <FieldError id={`${id}-days-error`} text={daysError} testId="inbox-days-error" />
        </div>
      )}
    </div>
  );
}

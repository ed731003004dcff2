import { defaultTransferValidityDays } from '@ferry/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '../../components/password-input';
import {
  TEMPLATE_NAME_MAX,
  TEMPLATE_RECIPIENTS_MAX,
  type TemplateCaps,
  type TemplateDraft,
  type TemplateField,
  type TemplateProblems,
} from './settings-form-state';
import { SettingsSwitch } from './settings-switch';

export type TemplateKind = 'uploader' | 'receiver';

/** Literal keys per template, so that the locale check sees every one. */
const TEXT: Record<TemplateKind, Record<'legend' | 'intro' | 'name' | 's2', string>> = {
  uploader: {
    legend: 'account:settings.uploader_legend',
    intro: 'account:settings.uploader_intro',
    name: 'account:settings.uploader_name',
    s2: 'account:settings.uploader_s2',
  },
  receiver: {
    legend: 'account:settings.receiver_legend',
    intro: 'account:settings.receiver_intro',
    name: 'account:settings.receiver_name',
    s2: 'account:settings.receiver_s2',
  },
};

interface TemplateFieldsProps {
  kind: TemplateKind;
  draft: TemplateDraft;
  caps: TemplateCaps;
  /** Shown after a save was tried. */
  problems: TemplateProblems;
  /** The saved default availability was beyond the plan's validity and is shown capped. */
  capped: boolean;
  onChange: (next: TemplateDraft) => void;
}

/** One template of spec §3 (uploaderTemplate or receiverTemplate), editable. */
export function TemplateFields({ kind, draft, caps, problems, capped, onChange }: TemplateFieldsProps) {
  const { t } = useTranslation();
  const id = `${useId()}-${kind}`;
  const text = TEXT[kind];
  const set = (field: keyof TemplateDraft) => (value: string | boolean) =>
    onChange({ ...draft, [field]: value });
  const describedBy = (field: TemplateField, hint = false) =>
    [hint ? `${id}-${field}-hint` : '', problems[field] ? `${id}-${field}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const error = (field: TemplateField) => {
    const problem = problems[field];
    return problem ? (
      <p className="field-error" id={`${id}-${field}-error`} data-testid={`${kind}-${field}-error`}>
        {t(problem.key, problem.values)}
      </p>
    ) : null;
  };
  const recipientsMax = Math.min(caps.recipients, TEMPLATE_RECIPIENTS_MAX);
  return (
    <fieldset className="fieldset template-fields" data-testid={`template-${kind}`}>
      <legend>{t(text.legend)}</legend>
      <p className="field-hint">{t(text.intro)}</p>
      <div className="field-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>{t(text.name)}</label>
          <input
            id={`${id}-name`}
            type="text"
            maxLength={TEMPLATE_NAME_MAX}
            value={draft.name}
            aria-invalid={problems.name ? true : undefined}
            aria-describedby={describedBy('name')}
            onChange={(event) => set('name')(event.target.value)}
            data-testid={`${kind}-name`}
          />
          {error('name')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-password`}>{t('account:settings.template_password')}</label>
          <PasswordInput
            id={`${id}-password`}
            value={draft.password}
            onValueChange={set('password')}
            autoComplete="new-password"
            aria-invalid={problems.password ? true : undefined}
            aria-describedby={describedBy('password', true)}
            testId={`${kind}-password`}
          />
          <p className="field-hint" id={`${id}-password-hint`}>
            {t('account:settings.template_password_hint')}
          </p>
          {error('password')}
        </div>
      </div>
      <div className="field">
        <div className="field-label-row">
          <label htmlFor={`${id}-message`}>{t('account:settings.template_message')}</label>
          <span className={`counter${draft.message.length > caps.messageLength ? ' is-over' : ''}`}>
            {t('uploader:message_counter', { length: draft.message.length, max: caps.messageLength })}
          </span>
        </div>
        <textarea
          id={`${id}-message`}
          rows={3}
          value={draft.message}
          aria-invalid={problems.message ? true : undefined}
          aria-describedby={describedBy('message')}
          onChange={(event) => set('message')(event.target.value)}
          data-testid={`${kind}-message`}
        />
        {error('message')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-recipients`}>{t('account:settings.template_recipients')}</label>
        <textarea
          id={`${id}-recipients`}
          rows={2}
          value={draft.recipients}
          placeholder={t('uploader:recipients_placeholder')}
          autoCapitalize="off"
          spellCheck={false}
          aria-invalid={problems.recipients ? true : undefined}
          aria-describedby={describedBy('recipients', true)}
          onChange={(event) => set('recipients')(event.target.value)}
          data-testid={`${kind}-recipients`}
        />
        <p className="field-hint" id={`${id}-recipients-hint`}>
          {t('account:settings.template_recipients_hint', { max: recipientsMax })}
        </p>
        {error('recipients')}
      </div>
      <div className="field settings-days">
        <label htmlFor={`${id}-days`}>{t('account:settings.template_days')}</label>
        <input
          id={`${id}-days`}
          type="number"
          inputMode="numeric"
          min={1}
          max={caps.validityDays}
          step={1}
          value={draft.defaultAvailability}
          placeholder={String(defaultTransferValidityDays(caps.validityDays))}
          aria-invalid={problems.defaultAvailability ? true : undefined}
          aria-describedby={describedBy('defaultAvailability', true)}
          onChange={(event) => set('defaultAvailability')(event.target.value)}
          data-testid={`${kind}-days`}
        />
        <p className="field-hint" id={`${id}-defaultAvailability-hint`}>
          {t('account:settings.template_days_hint', { count: caps.validityDays })}
        </p>
        {capped && !problems.defaultAvailability && (
          <p className="field-hint settings-capped" data-testid={`${kind}-days-capped`}>
            {t('account:settings.template_days_capped', { count: caps.validityDays })}
          </p>
        )}
        {error('defaultAvailability')}
      </div>
      <SettingsSwitch
        checked={draft.s2AsDefault}
        label={t(text.s2)}
        testId={`${kind}-s2`}
        onChange={set('s2AsDefault')}
      />
    </fieldset>
  );
}

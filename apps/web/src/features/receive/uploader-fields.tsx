import type { FieldMode, UploaderFields } from '@ferry/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isEmail } from '../uploader/recipients';

/** What the person who uploads tells the recipient (the point's `fields` say what is asked). */
export interface UploaderValues {
  name: string;
  email: string;
  message: string;
  /** Question id → answer. */
  answers: Record<string, string>;
}

export type FieldProblem = 'required' | 'invalid';

export interface UploaderProblems {
  name: FieldProblem | null;
  email: FieldProblem | null;
  message: FieldProblem | null;
  answers: Record<string, FieldProblem>;
}

/** Most characters of the uploader's message (the contract's limit). */
export const UPLOADER_MESSAGE_MAX = 10_000;

export function uploaderProblems(values: UploaderValues, fields: UploaderFields): UploaderProblems {
  const missing = (mode: FieldMode, value: string) => mode === 'required' && value.trim() === '';
  const answers: Record<string, FieldProblem> = {};
  for (const q of fields.questions) {
    if (q.required && (values.answers[q.id] ?? '').trim() === '') answers[q.id] = 'required';
  }
  const email = values.email.trim();
  return {
    name: missing(fields.name, values.name) ? 'required' : null,
    email:
      fields.email === 'hidden'
        ? null
        : missing(fields.email, email)
          ? 'required'
          : email !== '' && !isEmail(email)
            ? 'invalid'
            : null,
    message: missing(fields.message, values.message) ? 'required' : null,
    answers,
  };
}

export function hasUploaderProblems(p: UploaderProblems): boolean {
  return p.name !== null || p.email !== null || p.message !== null || Object.keys(p.answers).length > 0;
}

/** Whether the form asks anything at all (else the files go straight up). */
export function asksAnything(fields: UploaderFields): boolean {
  return (
    fields.name !== 'hidden' ||
    fields.email !== 'hidden' ||
    fields.message !== 'hidden' ||
    fields.questions.length > 0
  );
}

function optional(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The uploader part of POST /receive/uploads: only what the form asks for. */
export function uploaderBody(values: UploaderValues, fields: UploaderFields) {
  return {
    uploaderName: fields.name === 'hidden' ? undefined : optional(values.name),
    uploaderEmail: fields.email === 'hidden' ? undefined : optional(values.email),
    message: fields.message === 'hidden' ? undefined : optional(values.message),
    answers: fields.questions
      .map((q) => ({ questionId: q.id, answer: (values.answers[q.id] ?? '').trim() }))
      .filter((a) => a.answer !== ''),
  };
}

/** One labelled input; `(optional)` is said for what may stay empty. */
function TextField({
  id,
  label,
  mode,
  problem,
  testId,
  value,
  onChange,
  type = 'text',
  autoComplete,
  multiline = false,
  error,
}: {
  id: string;
  label: string;
  mode: FieldMode | 'required' | 'optional';
  problem: FieldProblem | null;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email';
  autoComplete?: string;
  multiline?: boolean;
  error: string;
}) {
  const { t } = useTranslation();
  const required = mode === 'required';
  const common = {
    id,
    value,
    required,
    'aria-required': required || undefined,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? `${id}-error` : undefined,
    'data-testid': testId,
  };
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {!required && <span className="field-optional"> {t('uploader:receive.optional')}</span>}
      </label>
      {multiline ? (
        <textarea
          {...common}
          rows={3}
          maxLength={UPLOADER_MESSAGE_MAX}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          {...common}
          type={type}
          autoComplete={autoComplete}
          maxLength={type === 'email' ? 320 : 200}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {problem && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The uploader's fields of a receive point: name, e-mail and message as the point asks them (hidden,
 * optional, required) and its custom questions. A personal request link knows the address: it is shown, not
 * asked. Problems show once the uploader tried to go on (`attempted`), or at once for an invalid address.
 */
export function UploaderFieldsForm({
  fields,
  values,
  onChange,
  attempted,
  recipientEmail,
}: {
  fields: UploaderFields;
  values: UploaderValues;
  onChange: (values: UploaderValues) => void;
  attempted: boolean;
  recipientEmail: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const problems = uploaderProblems(values, fields);
  const shown = (p: FieldProblem | null) => (p === 'invalid' || attempted ? p : null);
  const set = (patch: Partial<UploaderValues>) => onChange({ ...values, ...patch });
  return (
    <fieldset className="fieldset uploader-fields">
      <legend>{t('uploader:receive.about_you')}</legend>
      {recipientEmail && (
        <p className="field-hint" data-testid="uploader-as">
          {t('uploader:receive.uploading_as', { email: recipientEmail })}
        </p>
      )}
      <div className="field-grid">
        {fields.name !== 'hidden' && (
          <TextField
            id={`${id}-name`}
            label={t('uploader:receive.field_your_name')}
            mode={fields.name}
            problem={shown(problems.name)}
            testId="uploader-name"
            value={values.name}
            autoComplete="name"
            onChange={(name) => set({ name })}
            error={t('uploader:receive.required')}
          />
        )}
        {fields.email !== 'hidden' && (
          <TextField
            id={`${id}-email`}
            label={t('uploader:receive.field_your_email')}
            mode={fields.email}
            problem={shown(problems.email)}
            testId="uploader-email"
            type="email"
            value={values.email}
            autoComplete="email"
            onChange={(email) => set({ email })}
            error={t(problems.email === 'invalid' ? 'uploader:invalid_email' : 'uploader:receive.required')}
          />
        )}
      </div>
      {fields.message !== 'hidden' && (
        <TextField
          id={`${id}-message`}
          label={t('uploader:receive.field_your_message')}
          mode={fields.message}
          problem={shown(problems.message)}
          testId="uploader-message"
          value={values.message}
          multiline
          onChange={(message) => set({ message })}
          error={t('uploader:receive.required')}
        />
      )}
      {fields.questions.map((q) => (
        <TextField
          key={q.id}
          id={`${id}-q-${q.id}`}
          label={q.label}
          mode={q.required ? 'required' : 'optional'}
          problem={shown(problems.answers[q.id] ?? null)}
          testId={`uploader-answer-${q.id}`}
          value={values.answers[q.id] ?? ''}
          onChange={(answer) => set({ answers: { ...values.answers, [q.id]: answer } })}
          error={t('uploader:receive.required')}
        />
      ))}
    </fieldset>
  );
}

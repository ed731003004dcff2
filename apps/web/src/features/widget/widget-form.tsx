import type { ReceivePointPublic } from '@ferry/core';
import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon, UploadIcon } from '../../components/icons';
import { formatSize } from '../../lib/format';
import type { WalkResult } from '../uploader/collect-files';
import { FileList } from '../uploader/file-list';
import { FilePicker } from '../uploader/file-picker';
import type { SelectedFile } from '../uploader/selection';
import type { WidgetProblems, WidgetValues } from './widget-form-state';

/** What a point's form needs to be drawn (the public point, or the owner's draft in a preview). */
export type WidgetFormPoint = Pick<
  ReceivePointPublic,
  'fields' | 'passwordProtected' | 'allowedExtensions' | 'maxUploadBytes'
>;

function Field(props: {
  label: string;
  required: boolean;
  error: string | null;
  hint?: string;
  children: (a11y: { id: string; describedBy: string | undefined; invalid: true | undefined }) => ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const describedBy = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {!props.required && <span className="widget-optional"> ({t('uploader:widget.optional')})</span>}
      </label>
      {props.children({ id, describedBy: describedBy || undefined, invalid: props.error ? true : undefined })}
      {props.hint && (
        <p id={`${id}-hint`} className="field-hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

export interface WidgetFormProps {
  point: WidgetFormPoint;
  values: WidgetValues;
  files: readonly SelectedFile[];
  /** Shown once the visitor tried to send. */
  problems: WidgetProblems;
  /** Files skipped when added, with their notice (spec §5), and other notices of the selection. */
  notices: string[];
  failure: string | null;
  busy: boolean;
  /** Drawn for the owner's preview: nothing can be typed or sent. */
  preview?: boolean;
  onChange(values: WidgetValues): void;
  onFiles(result: WalkResult): void;
  onRemoveFile(key: string): void;
  onSubmit(): void;
}

/**
 * The widget's form: the fields the inbox asks for (name, e-mail, message, custom questions; required ones
 * marked, the others say "optional"), the password when the inbox has one, and the files, with the accepted
 * types named up front.
 */
export function WidgetForm(props: WidgetFormProps) {
  const { t, i18n } = useTranslation();
  const { point, values, problems, preview } = props;
  const { fields } = point;
  const set = (patch: Partial<WidgetValues>) => props.onChange({ ...values, ...patch });
  const error = (problem: WidgetProblems['name'], max?: number) =>
    problem ? t(`uploader:widget.problem_${problem}`, { max }) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  const extensions = point.allowedExtensions.map((e) => `.${e}`).join(', ');

  const content = (
    <>
      {fields.name !== 'hidden' && (
        <Field
          label={t('uploader:widget.name')}
          required={fields.name === 'required'}
          error={error(problems.name, 200)}
        >
          {(a) => (
            <input
              id={a.id}
              type="text"
              autoComplete="name"
              value={values.name}
              required={fields.name === 'required'}
              aria-invalid={a.invalid}
              aria-describedby={a.describedBy}
              onChange={(event) => set({ name: event.target.value })}
              data-testid="widget-name"
            />
          )}
        </Field>
      )}
      {fields.email !== 'hidden' && (
        <Field
          label={t('uploader:widget.email')}
          required={fields.email === 'required'}
          error={error(problems.email)}
        >
          {(a) => (
            <input
              id={a.id}
              type="email"
              inputMode="email"
              autoComplete="email"
              value={values.email}
              required={fields.email === 'required'}
              aria-invalid={a.invalid}
              aria-describedby={a.describedBy}
              onChange={(event) => set({ email: event.target.value })}
              data-testid="widget-email"
            />
          )}
        </Field>
      )}
      {fields.message !== 'hidden' && (
        <Field
          label={t('uploader:widget.message')}
          required={fields.message === 'required'}
          error={error(problems.message, 10_000)}
        >
          {(a) => (
            <textarea
              id={a.id}
              rows={3}
              value={values.message}
              required={fields.message === 'required'}
              aria-invalid={a.invalid}
              aria-describedby={a.describedBy}
              onChange={(event) => set({ message: event.target.value })}
              data-testid="widget-message"
            />
          )}
        </Field>
      )}
      {fields.questions.map((question) => (
        <Field
          key={question.id}
          label={question.label}
          required={question.required}
          error={error(problems.answers?.[question.id], 5000)}
        >
          {(a) => (
            <input
              id={a.id}
              type="text"
              value={values.answers[question.id] ?? ''}
              required={question.required}
              aria-invalid={a.invalid}
              aria-describedby={a.describedBy}
              onChange={(event) => set({ answers: { ...values.answers, [question.id]: event.target.value } })}
              data-testid={`widget-question-${question.id}`}
            />
          )}
        </Field>
      ))}
      {point.passwordProtected && (
        <Field
          label={t('uploader:widget.password')}
          required
          error={error(problems.password)}
          hint={t('uploader:widget.password_hint')}
        >
          {(a) => (
            <input
              id={a.id}
              type="password"
              autoComplete="off"
              value={values.password}
              required
              aria-invalid={a.invalid}
              aria-describedby={a.describedBy}
              onChange={(event) => set({ password: event.target.value })}
              data-testid="widget-password"
            />
          )}
        </Field>
      )}
      <div className="widget-files">
        <p className="field-label">{t('uploader:widget.files')}</p>
        <p className="field-hint" data-testid="widget-accepted">
          {extensions ? t('uploader:widget.accepted_types', { extensions }) : t('uploader:widget.any_type')}{' '}
          {t('uploader:widget.max_size', { size: formatSize(point.maxUploadBytes, i18n.language) })}
        </p>
        {preview ? (
          <div className="dropzone widget-dropzone-preview">
            <span className="dropzone-icon">
              <UploadIcon width={24} height={24} />
            </span>
            <span className="dropzone-title">{t('uploader:drop_title')}</span>
          </div>
        ) : (
          <FilePicker onFiles={props.onFiles} compact={props.files.length > 0} />
        )}
        <FileList files={props.files} onRemove={(keys) => keys.forEach(props.onRemoveFile)} />
        {props.notices.length > 0 && (
          <ul className="widget-notices" role="alert" data-testid="widget-notices">
            {props.notices.map((notice) => (
              <li key={notice}>{notice}</li>
            ))}
          </ul>
        )}
        {problems.files && (
          <p className="field-error" data-testid="widget-files-error">
            {t('uploader:widget.problem_files')}
          </p>
        )}
      </div>
      {props.failure && (
        <p className="notice notice-error" role="alert" data-testid="widget-error">
          <AlertIcon /> {props.failure}
        </p>
      )}
      <button
        type={preview ? 'button' : 'submit'}
        className="button button-start button-block widget-submit"
        disabled={props.busy}
        data-testid="widget-submit"
      >
        {props.busy ? t('uploader:widget.sending') : t('uploader:widget.send')}
      </button>
    </>
  );
  // A preview sits inside the owner's own form: no nested form, nothing that submits.
  if (preview)
    return (
      <div className="widget-form" inert data-testid="widget-preview-form">
        {content}
      </div>
    );
  return (
    <form
      className="widget-form"
      noValidate
      onSubmit={submit}
      aria-busy={props.busy || undefined}
      data-testid="widget-form"
    >
      {content}
    </form>
  );
}

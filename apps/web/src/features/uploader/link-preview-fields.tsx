import { OPEN_GRAPH_DESCRIPTION_MAX, OPEN_GRAPH_TITLE_MAX } from '@ferry/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import type { FormField, FormProblems, TransferForm } from './uploader-state';

/** The two texts, labelled as the dashboard's link-preview editor labels them. */
const FIELDS = [
  {
    field: 'ogTitle',
    max: OPEN_GRAPH_TITLE_MAX,
    label: 'account:transfer.link_preview_title_label',
    testId: 'link-preview-title',
  },
  {
    field: 'ogDescription',
    max: OPEN_GRAPH_DESCRIPTION_MAX,
    label: 'account:transfer.link_preview_description_label',
    testId: 'link-preview-description',
  },
] as const;

/**
 * The link preview of a paying sender's link (spec §3 `openGraph`): the title and description chat apps and
 * social sites show for the download page instead of its name and size. Each says how many characters are left,
 * counted as they are sent (without surrounding spaces), and why the server would refuse it.
 */
export function LinkPreviewFields({
  form,
  problems,
  passwordProtected,
  set,
}: {
  form: TransferForm;
  problems: FormProblems;
  /** The transfer will have a password: its page then shows a general preview only (said here). */
  passwordProtected: boolean;
  set: (field: FormField) => (value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <fieldset
      className="fieldset link-preview-fields"
      aria-describedby={`${id}-intro${passwordProtected ? ` ${id}-hidden` : ''}`}
      data-testid="link-preview-fields"
    >
      <legend>{t('account:transfer.link_preview_title')}</legend>
      <p className="field-hint" id={`${id}-intro`}>
        {t('uploader:link_preview_hint')}
      </p>
      {FIELDS.map(({ field, max, label, testId }) => {
        const value = form[field];
        const left = max - value.trim().length;
        const problem = problems[field];
        const control = {
          value,
          autoComplete: 'off',
          onChange: (e: { target: { value: string } }) => set(field)(e.target.value),
          'data-testid': testId,
        };
        return (
          <LabelledField
            key={field}
            label={t(label)}
            hint={
              left >= 0
                ? t('uploader:link_preview_left', { count: left })
                : t('uploader:link_preview_over', { count: -left })
            }
            error={
              problem === 'too_long'
                ? t('uploader:link_preview_too_long', { max })
                : problem === 'control_chars'
                  ? t('uploader:link_preview_control_chars')
                  : null
            }
          >
            {(p) =>
              field === 'ogTitle' ? (
                <input {...p} {...control} type="text" />
              ) : (
                <textarea {...p} {...control} rows={3} />
              )
            }
          </LabelledField>
        );
      })}
      {passwordProtected && (
        <p className="notice" id={`${id}-hidden`} data-testid="link-preview-password">
          {t('uploader:link_preview_password')}
        </p>
      )}
    </fieldset>
  );
}

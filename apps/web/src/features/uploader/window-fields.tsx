import { CUSTOM_LINK_MAX_LENGTH } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { formatDateTime } from '../../lib/format';
import { fromLocalInput, toLocalInput } from '../../lib/local-datetime';
import type { FormField, FormProblems, TransferForm } from './uploader-state';

/**
 * The custom link of a paying sender's transfer: the link it will answer at is shown as it is typed, a link that
 * breaks the rule (or that the server said is taken) says why under the field.
 */
export function CustomLinkField({
  form,
  problems,
  taken,
  set,
}: {
  form: TransferForm;
  problems: FormProblems;
  /** The custom link the server last refused as taken (409). */
  taken: string | null;
  set: (field: FormField) => (value: string) => void;
}) {
  const { t } = useTranslation();
  const problem = problems.customLink ?? (taken !== null && taken === form.customLink ? 'taken' : null);
  const url = `${window.location.origin}/dl/${form.customLink || t('uploader:custom_link_example')}`;
  return (
    <LabelledField
      label={t('uploader:field_custom_link')}
      hint={t('uploader:custom_link_hint', { url })}
      error={problem ? t(`uploader:custom_link_${problem}`) : null}
      testId="custom-link-field"
    >
      {(p) => (
        <input
          {...p}
          type="text"
          value={form.customLink}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={CUSTOM_LINK_MAX_LENGTH + 1}
          placeholder={t('uploader:custom_link_example')}
          onChange={(e) => set('customLink')(e.target.value)}
          data-testid="transfer-custom-link"
        />
      )}
    </LabelledField>
  );
}

/** The moment the transfer opens (spec §3 "from" date), in the sender's time zone; empty: once uploaded. */
export function AvailableFromField({
  form,
  problems,
  set,
}: {
  form: TransferForm;
  problems: FormProblems;
  set: (field: FormField) => (value: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const opens = fromLocalInput(form.availableFrom);
  return (
    <LabelledField
      label={t('uploader:field_available_from')}
      hint={
        opens && !problems.availableFromPast
          ? t('uploader:available_from_on', { date: formatDateTime(opens, i18n.language) })
          : t('uploader:available_from_hint')
      }
      error={problems.availableFromPast ? t('uploader:available_from_past') : null}
      testId="available-from-field"
    >
      {(p) => (
        <input
          {...p}
          type="datetime-local"
          value={form.availableFrom}
          min={toLocalInput(new Date())}
          onChange={(e) => set('availableFrom')(e.target.value)}
          data-testid="transfer-available-from"
        />
      )}
    </LabelledField>
  );
}

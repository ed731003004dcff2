import type { ContrastProblem } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { normalizeHex } from '../widget/theme';
import { colorError } from './customization-state';

/** A colour: the browser's picker and the hex text beside it, with what is wrong with it. */
export function ColorField({
  label,
  hint,
  value,
  problem,
  onChange,
  testId,
}: {
  label: string;
  hint: string;
  value: string;
  problem: ContrastProblem | undefined;
  onChange(value: string): void;
  testId: string;
}) {
  const { t } = useTranslation();
  const error =
    colorError(value) !== null
      ? t('account:customization.color_invalid')
      : problem
        ? t('account:customization.contrast_low', { ratio: problem.ratio, min: problem.min })
        : null;
  return (
    <LabelledField label={label} hint={hint} error={error} testId={testId}>
      {(field) => (
        <div className="color-field">
          <input
            type="color"
            aria-label={t('account:customization.pick_color', { field: label })}
            value={normalizeHex(value) ?? '#000000'}
            onChange={(e) => onChange(e.target.value)}
            data-testid={`${testId}-picker`}
          />
          <input
            {...field}
            type="text"
            inputMode="text"
            spellCheck={false}
            autoComplete="off"
            maxLength={7}
            value={value}
            onChange={(e) => onChange(e.target.value.trim())}
            data-testid={`${testId}-input`}
          />
        </div>
      )}
    </LabelledField>
  );
}

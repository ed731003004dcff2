import { useTranslation } from 'react-i18next';
import type { UploaderStep } from './uploader-state';

const STEPS: readonly { step: UploaderStep; key: string }[] = [
  { step: 1, key: 'uploader:step_files' },
  { step: 2, key: 'uploader:step_options' },
  { step: 3, key: 'uploader:step_upload' },
  { step: 4, key: 'uploader:step_done' },
];

/**
 * The numbered wizard steps (spec §4: numbered from 1). `steps` names them for another wizard (the receive
 * pages); the uploader's four by default.
 */
export function StepIndicator({
  current,
  steps = STEPS,
}: {
  current: number;
  steps?: readonly { step: number; key: string }[];
}) {
  const { t } = useTranslation();
  const currentKey = steps.find((s) => s.step === current)?.key ?? steps[0]?.key ?? 'uploader:step_files';
  return (
    <>
      <p className="visually-hidden" aria-live="polite">
        {t('uploader:step_announce', { step: current, total: steps.length, label: t(currentKey) })}
      </p>
      <ol className="steps" aria-label={t('uploader:steps_label')}>
        {steps.map(({ step, key }) => {
          const state = step < current ? 'done' : step === current ? 'current' : 'todo';
          return (
            <li
              key={step}
              className={`step step-${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="step-number" aria-hidden="true">
                {step}
              </span>
              <span className="step-label">{t(key)}</span>
            </li>
          );
        })}
      </ol>
    </>
  );
}

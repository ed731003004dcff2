import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A destructive button that asks once more, in place, before it acts (keyboard reachable, no modal). */
export function ConfirmButton(props: {
  label: string;
  question: string;
  testId: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  // The first button is gone once the question shows: keyboard focus moves to the answer.
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button-secondary button-small"
        data-testid={props.testId}
        disabled={props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <fieldset className="transfer-actions transfer-confirm" data-testid={`${props.testId}-confirm`}>
      <legend>{props.question}</legend>
      <button
        ref={yes}
        type="button"
        className="button button-danger button-small"
        data-testid={`${props.testId}-yes`}
        disabled={props.disabled}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {t('account:transfer.confirm_yes')}
      </button>
      <button type="button" className="button button-secondary button-small" onClick={() => setAsking(false)}>
        {t('account:transfer.confirm_no')}
      </button>
    </fieldset>
  );
}

/** The inline error of an action, read out when it appears. */
export function ActionError({ error, testId }: { error: string | null; testId: string }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert" data-testid={testId}>
      {error}
    </p>
  );
}

import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { ActionError } from './confirm-button';
import type { TransferAction } from './use-transfer-action';

/** One field, one submit button, the action's error under it: the shape of every edit on the detail page. */
export function ValueForm(props: {
  label: string;
  submit: string;
  initial: string;
  testId: string;
  action: TransferAction;
  type?: 'text' | 'date' | 'datetime-local' | 'number' | 'password' | 'email';
  min?: string;
  max?: string;
  required?: boolean;
  resetOnDone?: boolean;
  extra?: ReactNode;
  onSubmit: (value: string, done: () => void) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(props.initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit(value.trim(), () => {
      if (props.resetOnDone) setValue('');
    });
  };
  return (
    <form className="field" onSubmit={submit} data-testid={props.testId}>
      <label htmlFor={id}>{props.label}</label>
      <div className="input-with-button">
        <input
          id={id}
          type={props.type ?? 'text'}
          value={value}
          min={props.min}
          max={props.max}
          required={props.required}
          autoComplete={props.type === 'password' ? 'new-password' : 'off'}
          onChange={(event) => setValue(event.target.value)}
        />
        <button
          type="submit"
          className="button button-secondary button-small"
          disabled={props.action.pending}
        >
          {props.submit}
        </button>
        {props.extra}
      </div>
      <ActionError error={props.action.error} testId={`${props.testId}-error`} />
    </form>
  );
}

import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useDescribeError } from './use-describe-error';

export interface SubmitFailure {
  /** Shows a message above the form's buttons. */
  setFailure: (message: string | null) => void;
  /** Counts the save as refused: the first field marked invalid gets focus. */
  refuse: () => void;
}

/**
 * A form whose problems show once a save has been tried: `checked` turns on at the first try and off after a
 * save that went through; a save refused for the form's own problems moves focus to the first field marked
 * `aria-invalid`; `save` runs only when nothing is invalid, one at a time. An error `save` throws is described in
 * `failure`, unless `onError` deals with it.
 */
export function useCheckedSubmit(options: {
  invalid: boolean;
  save: () => Promise<void>;
  onError?: (error: unknown, failure: SubmitFailure) => void;
}) {
  const describe = useDescribeError();
  const form = useRef<HTMLFormElement>(null);
  const [checked, setChecked] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (attempt === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const refuse = () => setAttempt((n) => n + 1);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setChecked(true);
    setFailure(null);
    if (options.invalid) {
      refuse();
      return;
    }
    setBusy(true);
    try {
      await options.save();
      setChecked(false);
    } catch (error) {
      if (options.onError) options.onError(error, { setFailure, refuse });
      else setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };

  return { form, checked, busy, failure, onSubmit };
}

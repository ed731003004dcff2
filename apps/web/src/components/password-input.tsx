import { type InputHTMLAttributes, type Ref, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from './icons';

interface PasswordInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange'> {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  testId: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A password field with a show/hide button (`<testId>-toggle`, aria-pressed). */
export function PasswordInput({ id, value, onValueChange, testId, inputRef, ...rest }: PasswordInputProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <div className="input-with-button">
      <input
        {...rest}
        ref={inputRef}
        id={id}
        type={visible ? 'text' : 'password'}
        value={value}
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        onChange={(event) => onValueChange(event.target.value)}
        data-testid={testId}
      />
      <button
        type="button"
        className="icon-button"
        aria-pressed={visible}
        aria-controls={id}
        aria-label={t(visible ? 'common:hide_password' : 'common:show_password')}
        onClick={() => setVisible((v) => !v)}
        data-testid={`${testId}-toggle`}
      >
        {visible ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  );
}

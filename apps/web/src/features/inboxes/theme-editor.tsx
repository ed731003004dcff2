import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FilledTheme, normalizeHex, THEME_KEYS, type ThemeKey } from '../widget/theme';
import type { ThemeDraft } from './inbox-form-state';

function ColorRow(props: {
  name: ThemeKey;
  value: string | null;
  fallback: string;
  testId: string;
  onChange: (value: string | null) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const shown = props.value ?? props.fallback;
  const [text, setText] = useState(shown);
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setText(shown);
  }
  const invalid = normalizeHex(text) === null;
  const label = t(`account:inboxes.color_${props.name}`);
  return (
    <div className="field color-row">
      <label htmlFor={`${id}-hex`}>{label}</label>
      <div className="color-inputs">
        <input
          type="color"
          value={normalizeHex(shown) ?? '#000000'}
          aria-label={t('account:inboxes.color_pick', { name: label })}
          onChange={(event) => props.onChange(event.target.value)}
          data-testid={`${props.testId}-${props.name}-picker`}
        />
        <input
          id={`${id}-hex`}
          type="text"
          className="mono color-hex"
          value={text}
          spellCheck={false}
          autoComplete="off"
          maxLength={7}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            setText(event.target.value);
            const hex = normalizeHex(event.target.value);
            if (hex) props.onChange(hex);
          }}
          data-testid={`${props.testId}-${props.name}`}
        />
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={props.value === null}
          onClick={() => props.onChange(null)}
          data-testid={`${props.testId}-${props.name}-reset`}
        >
          {t('account:inboxes.color_reset')}
        </button>
      </div>
      <p id={`${id}-hint`} className={invalid ? 'field-error' : 'field-hint'}>
        {invalid
          ? t('account:inboxes.color_invalid')
          : props.value === null
            ? t('account:inboxes.color_default', { color: props.fallback.toUpperCase() })
            : t('account:inboxes.color_custom')}
      </p>
    </div>
  );
}

/**
 * The three branding colours of spec §3 (background, action, start button): a colour picker and its hex code
 * for each, and "Default" to go back to the colour used when none is set (`fallback`).
 */
export function ThemeEditor(props: {
  value: ThemeDraft;
  fallback: FilledTheme;
  testId: string;
  onChange: (value: ThemeDraft) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="fieldset theme-editor" data-testid={props.testId}>
      <legend className="field-label">{t('account:inboxes.colors_legend')}</legend>
      {THEME_KEYS.map((key) => (
        <ColorRow
          key={key}
          name={key}
          value={props.value[key]}
          fallback={props.fallback[key]}
          testId={props.testId}
          onChange={(color) => props.onChange({ ...props.value, [key]: color })}
        />
      ))}
    </fieldset>
  );
}

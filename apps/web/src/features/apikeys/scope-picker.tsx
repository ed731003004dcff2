import { API_TOKEN_SCOPES, type ApiTokenScope } from '@ferry/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** The i18n key naming a scope (`transfers:read` → `apikeys:scope_transfers_read`). */
export function scopeLabelKey(scope: ApiTokenScope): string {
  return `apikeys:scope_${scope.replace(':', '_')}`;
}

/** The scopes of a new API token, one checkbox each, in a fieldset with its legend; `error` under it. */
export function ScopePicker({
  value,
  onChange,
  error,
}: {
  value: readonly ApiTokenScope[];
  onChange: (scopes: ApiTokenScope[]) => void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const toggle = (scope: ApiTokenScope, on: boolean) =>
    onChange(API_TOKEN_SCOPES.filter((s) => (s === scope ? on : value.includes(s))));
  return (
    <fieldset
      className="field"
      aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
      aria-invalid={error ? true : undefined}
      data-testid="token-scopes"
    >
      <legend>{t('apikeys:scopes_legend')}</legend>
      {API_TOKEN_SCOPES.map((scope) => (
        <label key={scope} className="checkbox">
          <input
            type="checkbox"
            checked={value.includes(scope)}
            onChange={(event) => toggle(scope, event.target.checked)}
            data-testid={`token-scope-${scope}`}
          />
          <span>{t(scopeLabelKey(scope))}</span>
        </label>
      ))}
      <p className="field-hint" id={`${id}-hint`}>
        {t('apikeys:scopes_hint')}
      </p>
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';

/** An extension as the list keeps it: lower case, without a leading dot. */
export function normaliseTag(text: string): string {
  return text.trim().replace(/^\.+/, '').toLowerCase();
}

/**
 * A list of file extensions as tags: type one and press Enter (or Add); each tag has its own remove button. An
 * empty list allows every extension.
 */
export function ExtensionTags({
  label,
  hint,
  value,
  onChange,
  testId,
}: {
  label: string;
  hint: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const tag = normaliseTag(draft);
    if (tag === '') return;
    if (!/^[a-z0-9_+-]{1,20}$/.test(tag)) {
      setError(t('teamPolicies:extensions.invalid'));
      return;
    }
    setError(null);
    if (!value.includes(tag)) onChange([...value, tag]);
    setDraft('');
  };
  return (
    <div className="team-tags" data-testid={testId}>
      <LabelledField label={label} hint={hint} error={error}>
        {(props) => (
          <span className="team-tags-entry">
            <input
              {...props}
              type="text"
              value={draft}
              maxLength={21}
              autoComplete="off"
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  add();
                }
              }}
              data-testid={`${testId}-input`}
            />
            <button type="button" className="button button-secondary button-small" onClick={add}>
              {t('teamPolicies:extensions.add')}
            </button>
          </span>
        )}
      </LabelledField>
      {value.length === 0 ? (
        <p className="muted" data-testid={`${testId}-any`}>
          {t('teamPolicies:extensions.any')}
        </p>
      ) : (
        <ul className="team-tags-list" aria-label={label}>
          {value.map((tag) => (
            <li key={tag} className="team-tag">
              <span>{tag}</span>
              <button
                type="button"
                className="button button-link button-small"
                aria-label={t('teamPolicies:extensions.remove', { extension: tag })}
                onClick={() => onChange(value.filter((v) => v !== tag))}
                data-testid={`${testId}-remove-${tag}`}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A checkbox drawn as a toggle (the uploader's `.switch` look), with an optional hint. */
export function SettingsSwitch({
  checked,
  label,
  hint,
  testId,
  onChange,
}: {
  checked: boolean;
  label: string;
  hint?: string;
  testId: string;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
      />
      <span className="switch-track" aria-hidden="true" />
      <span className="switch-text">
        <span>{label}</span>
        {hint && <span className="field-hint">{hint}</span>}
      </span>
    </label>
  );
}

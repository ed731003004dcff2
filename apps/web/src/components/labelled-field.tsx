import { type ReactNode, useId } from 'react';

/** What the control inside a LabelledField must spread onto itself. */
export interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/**
 * One form field: its label, the control, an optional hint and an optional error, the control pointing at both
 * with aria-describedby (DESIGN.md: every form shares this). The control is drawn by `children`, given the props
 * to spread: `<LabelledField label="Country">{(p) => <select {...p}>…</select>}</LabelledField>`.
 */
export function LabelledField({
  label,
  hint,
  error,
  children,
  className,
  testId,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: (props: FieldControlProps) => ReactNode;
  className?: string;
  testId?: string;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : null;
  const errorId = error ? `${id}-error` : null;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'} data-testid={testId}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p className="field-hint" id={hintId ?? undefined}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId ?? undefined} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

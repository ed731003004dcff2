/** The message under a field; the field points at it with aria-describedby. */
export function FieldError({ id, text, testId }: { id: string; text: string | null; testId?: string }) {
  if (!text) return null;
  return (
    <p className="field-error" id={id} data-testid={testId}>
      {text}
    </p>
  );
}

import { useTranslation } from 'react-i18next';
import { type PasswordStrength, strengthLevel } from './password-strength';

/** The strength of a new password as a 4-bar meter and a sentence, read out politely as it changes. */
export function PasswordHint({
  id,
  strength,
  testId,
}: {
  id: string;
  strength: PasswordStrength;
  testId: string;
}) {
  const { t } = useTranslation();
  const level = strengthLevel(strength);
  return (
    <div className="strength" data-strength={strength} data-testid={testId}>
      <div className="strength-bars" aria-hidden="true">
        {[1, 2, 3, 4].map((bar) => (
          <span key={bar} className={bar <= level ? `strength-bar is-on is-${strength}` : 'strength-bar'} />
        ))}
      </div>
      <p className="field-hint" id={id} aria-live="polite">
        {t(`auth:strength_${strength}`)}
      </p>
    </div>
  );
}

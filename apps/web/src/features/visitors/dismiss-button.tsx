import { CloseIcon } from '../../components/icons';
import { focusMain } from './visitor-state';

/**
 * The close button of a visitors' element (the mobile banner, the promo panel): it dismisses the element, then
 * moves focus to the page's main area so it is not lost with the element.
 */
export function VisitorDismissButton({
  label,
  testId,
  onDismiss,
}: {
  /** The button's accessible name. */
  label: string;
  testId: string;
  onDismiss: () => void;
}) {
  return (
    <button
      type="button"
      className="icon-button visitor-dismiss"
      aria-label={label}
      data-testid={testId}
      onClick={() => {
        onDismiss();
        focusMain();
      }}
    >
      <CloseIcon />
    </button>
  );
}

import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LinkIcon, MailIcon } from '../../components/icons';
import type { UploadType } from './uploader-state';

const TYPE_LABELS: Readonly<Record<UploadType, string>> = { S1: 'uploader:type_S1', S2: 'uploader:type_S2' };

/**
 * Send by e-mail (S1) or get a link (S2): two radio buttons that set the URL's hash (`/#S1`, `/#S2`, spec §2),
 * so the choice is the address of the page. Files and options are kept when switching.
 */
export function TransferTypeSwitch({
  current,
  available,
  labels = TYPE_LABELS,
}: {
  current: UploadType;
  available: readonly UploadType[];
  /** The two options' translation keys (the receive form asks "by e-mail" / "with a link"). */
  labels?: Readonly<Record<UploadType, string>>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (available.length < 2) return null;
  return (
    <fieldset className="type-switch">
      <legend className="visually-hidden">{t('uploader:type_legend')}</legend>
      {available.map((type) => (
        <label key={type} className={`type-option${type === current ? ' is-selected' : ''}`}>
          <input
            type="radio"
            name="transfer-type"
            value={type}
            checked={type === current}
            onChange={() => void navigate({ hash: `#${type}` }, { replace: true })}
            data-testid={`type-${type}`}
          />
          {type === 'S1' ? <MailIcon width={18} height={18} /> : <LinkIcon width={18} height={18} />}
          <span>{t(labels[type])}</span>
        </label>
      ))}
    </fieldset>
  );
}

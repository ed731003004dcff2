import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LinkIcon, MailIcon } from '../../components/icons';
import type { UploadType } from './uploader-state';

/**
 * Send by e-mail (S1) or get a link (S2): two radio buttons that set the URL's hash (`/#S1`, `/#S2`, spec §2),
 * so the choice is the address of the page. Files and options are kept when switching.
 */
export function TransferTypeSwitch({
  current,
  available,
}: {
  current: UploadType;
  available: readonly UploadType[];
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
          <span>{t(type === 'S1' ? 'uploader:type_S1' : 'uploader:type_S2')}</span>
        </label>
      ))}
    </fieldset>
  );
}

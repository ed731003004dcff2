import { useTranslation } from 'react-i18next';
import { ClockIcon } from '../components/icons';
import { MessagePage } from './message-page';

/** `/d/expired`: the transfer is past its expiry date. */
export default function ExpiredRoute() {
  const { t } = useTranslation();
  return (
    <MessagePage
      testId="page-expired"
      icon={<ClockIcon width={40} height={40} />}
      title={t('downloader:expired_title')}
      text={t('downloader:expired_text')}
    />
  );
}

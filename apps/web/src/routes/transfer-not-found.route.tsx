import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../components/icons';
import { MessagePage } from './message-page';

/** `/d/notfound`: unknown, disabled or deleted transfer. */
export default function TransferNotFoundRoute() {
  const { t } = useTranslation();
  return (
    <MessagePage
      testId="page-transfer-not-found"
      icon={<AlertIcon width={40} height={40} />}
      title={t('downloader:notfound_title')}
      text={t('downloader:notfound_text')}
    />
  );
}

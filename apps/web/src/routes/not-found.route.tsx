import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../components/icons';
import { MessagePage } from './message-page';

/** Any other path. */
export default function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <MessagePage
      testId="page-not-found"
      icon={<AlertIcon width={40} height={40} />}
      title={t('common:not_found_title')}
      text={t('common:not_found_text')}
    />
  );
}

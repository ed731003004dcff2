import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { AlertIcon } from '../components/icons';
import { MessagePage } from './message-page';

/** Shown when a page crashes: the error is logged and the visitor gets a way home. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <MessagePage
      testId="page-error"
      icon={<AlertIcon width={40} height={40} />}
      title={t('common:crash_title')}
      text={t('common:crash_text')}
    />
  );
}

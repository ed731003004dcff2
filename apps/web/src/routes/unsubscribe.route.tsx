import { UnsubscribePage } from '../features/notifications/unsubscribe-page';

/** `/unsubscribe?token=…`: turns off the notification e-mails a mail's link stands for, on request. */
export default function UnsubscribeRoute() {
  return <UnsubscribePage />;
}

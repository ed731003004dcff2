import { PushPage } from '../features/receive/push-page';

/** `/push[?to=…]`: push files into an account by its owner's e-mail address or an inbox name (S3). */
export default function PushRoute() {
  return <PushPage />;
}

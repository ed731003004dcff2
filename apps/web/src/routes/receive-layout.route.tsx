import { ReceiveLayout } from '../features/receive/receive-layout';

/** The frame of /r/…, /i/… and /push: the limited layout of spec §2 for signed-out visitors. */
export default function ReceiveLayoutRoute() {
  return <ReceiveLayout />;
}

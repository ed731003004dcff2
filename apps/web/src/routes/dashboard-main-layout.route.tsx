import { MainLayout } from '../features/dashboard/main-layout';

export { preloadPanel } from '../features/dashboard/main-layout';

import { BehindPage } from '../features/receive/behind-page';

/**
 * `/`, `/request-files`, `/account/*` and `/dashboard/*`: the uploader (or, in receive mode, the receiver) with
 * the sliding panel over it (spec §2 main layout).
 */
export default function MainLayoutRoute() {
  return <MainLayout behind={<BehindPage />} />;
}

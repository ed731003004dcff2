import { MainLayout } from '../features/dashboard/main-layout';
import UploaderRoute from './uploader.route';

/** `/`, `/account/*` and `/dashboard/*`: the uploader, with the sliding panel over it (spec §2 main layout). */
export default function MainLayoutRoute() {
  return <MainLayout behind={<UploaderRoute />} />;
}

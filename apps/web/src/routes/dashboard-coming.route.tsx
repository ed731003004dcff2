import { ComingPage } from '../features/dashboard/coming-page';

/** `/dashboard/*` routes without a page yet. */
export default function DashboardComingRoute() {
  return <ComingPage />;
}

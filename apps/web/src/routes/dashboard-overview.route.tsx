import { OverviewPage } from '../features/dashboard/overview-page';

/** `/dashboard` */
export default function DashboardOverviewRoute() {
  return <OverviewPage />;
}

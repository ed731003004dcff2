import { DashboardLayout } from '../features/dashboard/dashboard-layout';

/** `/dashboard/*`: the dashboard menu beside the page. */
export default function DashboardRoute() {
  return <DashboardLayout />;
}

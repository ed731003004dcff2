import { DashboardPage } from '../features/account/dashboard-page';

/** `/dashboard*` */
export default function DashboardRoute() {
  return <DashboardPage />;
}

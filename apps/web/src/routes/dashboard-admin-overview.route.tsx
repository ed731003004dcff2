import { TeamOverviewPage } from '../features/team-admin/overview-page';

/** `/dashboard/admin` */
export default function DashboardAdminOverviewRoute() {
  return <TeamOverviewPage />;
}

import { TeamTransfersPage } from '../features/team-admin/team-transfers-page';

/** `/dashboard/admin/transfers` */
export default function DashboardAdminTransfersRoute() {
  return <TeamTransfersPage />;
}

import { MembersPage } from '../features/team/members-page';

/** `/dashboard/admin/users` */
export default function DashboardAdminUsersRoute() {
  return <MembersPage />;
}

import { UserGroupsPage } from '../features/team/user-groups-page';

/** `/dashboard/admin/user-groups` */
export default function DashboardAdminUserGroupsRoute() {
  return <UserGroupsPage />;
}

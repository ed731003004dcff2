import { AuthenticationPolicyPage } from '../features/team-admin/authentication-policy-page';

/** `/dashboard/admin/authentication` */
export default function DashboardAdminAuthenticationRoute() {
  return <AuthenticationPolicyPage />;
}

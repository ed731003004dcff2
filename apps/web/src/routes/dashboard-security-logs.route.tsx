import { SecurityLogPage } from '../features/security-log/security-log-page';

/** `/dashboard/admin/security-logs` */
export default function DashboardSecurityLogsRoute() {
  return <SecurityLogPage />;
}

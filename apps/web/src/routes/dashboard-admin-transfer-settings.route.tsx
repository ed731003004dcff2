import { TransferPolicyPage } from '../features/team-admin/transfer-policy-page';

/** `/dashboard/admin/transfers/settings` */
export default function DashboardAdminTransferSettingsRoute() {
  return <TransferPolicyPage />;
}

import { TransferListPage } from '../features/dashboard/transfers/transfer-list-page';

/** `/dashboard/transfers` */
export default function DashboardTransfersRoute() {
  return <TransferListPage />;
}

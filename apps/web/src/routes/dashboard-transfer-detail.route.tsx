import { useParams } from 'react-router';
import { TransferDetailPage } from '../features/dashboard/transfers/transfer-detail-page';

/** `/dashboard/transfers/:id` */
export default function DashboardTransferDetailRoute() {
  const { id = '' } = useParams();
  // A new id is a new page: no state of the previous transfer's forms carries over.
  return <TransferDetailPage key={id} id={id} />;
}

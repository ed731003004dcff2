import { useParams } from 'react-router';
import { InboxDetailPage } from '../features/inboxes/inbox-detail-page';

/** `/dashboard/admin/inboxes/:inboxId` */
export default function DashboardInboxesDetailRoute() {
  const { inboxId = '' } = useParams();
  // Another inbox is another page: no form state carries over.
  return <InboxDetailPage key={inboxId} inboxId={inboxId} />;
}

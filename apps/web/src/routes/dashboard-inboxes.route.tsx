import { InboxListPage } from '../features/inboxes/inbox-list-page';

/** `/dashboard/admin/inboxes` */
export default function DashboardInboxesRoute() {
  return <InboxListPage />;
}

import { InboxNewPage } from '../features/inboxes/inbox-new-page';

/** `/dashboard/admin/inboxes/new` */
export default function DashboardInboxesNewRoute() {
  return <InboxNewPage />;
}

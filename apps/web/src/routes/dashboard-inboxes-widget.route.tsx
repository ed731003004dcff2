import { useParams } from 'react-router';
import { WidgetEditorPage } from '../features/inboxes/widget-editor-page';

/** `/dashboard/admin/inboxes/:inboxId/widgets/new` and `/dashboard/admin/inboxes/:inboxId/widgets/:widgetId` */
export default function DashboardInboxesWidgetRoute() {
  const { inboxId = '', widgetId = null } = useParams();
  return <WidgetEditorPage key={`${inboxId}/${widgetId ?? 'new'}`} inboxId={inboxId} widgetId={widgetId} />;
}

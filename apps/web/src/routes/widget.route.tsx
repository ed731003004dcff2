import { useParams } from 'react-router';
import { WidgetPage } from '../features/widget/widget-page';

/** `/widgets/:widgetId`: the embeddable upload widget, outside the app's layout (no header, menus or session). */
export default function WidgetRoute() {
  const { widgetId = '' } = useParams();
  return <WidgetPage key={widgetId} widgetId={widgetId} />;
}

import { SettingsPage } from '../features/dashboard/settings-page';

/** `/dashboard/settings` */
export default function DashboardSettingsRoute() {
  return <SettingsPage />;
}

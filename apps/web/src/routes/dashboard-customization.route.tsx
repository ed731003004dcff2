import { CustomizationPage } from '../features/customization/customization-page';

/** `/dashboard/customization` */
export default function DashboardCustomizationRoute() {
  return <CustomizationPage />;
}

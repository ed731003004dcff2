import { ApiPage } from '../features/apikeys/api-page';

/** `/dashboard/admin/api` */
export default function DashboardApiRoute() {
  return <ApiPage />;
}

import { OperatorPage } from '../features/operator/operator-page';

/** `/operator` */
export default function OperatorRoute() {
  return <OperatorPage />;
}

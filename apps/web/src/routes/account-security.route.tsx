import { SecurityPage } from '../features/account/security-page';

/** `/account/security` */
export default function AccountSecurityRoute() {
  return <SecurityPage />;
}

import { EnterpriseContactPage } from '../features/auth/enterprise-contact-page';

/** `/register/enterprise` */
export default function RegisterEnterpriseRoute() {
  return <EnterpriseContactPage />;
}

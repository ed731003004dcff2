import { RegisterPage } from '../features/auth/register-page';

/** `/register` */
export default function RegisterRoute() {
  return <RegisterPage />;
}

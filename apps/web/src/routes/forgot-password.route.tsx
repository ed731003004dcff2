import { ForgotPasswordPage } from '../features/auth/forgot-password-page';

/** `/forgot-password` */
export default function ForgotPasswordRoute() {
  return <ForgotPasswordPage />;
}

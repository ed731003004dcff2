import { ResetPasswordPage } from '../features/auth/reset-password-page';

/** `/reset-password?token=…` */
export default function ResetPasswordRoute() {
  return <ResetPasswordPage />;
}

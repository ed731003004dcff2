import { VerifyEmailPage } from '../features/auth/verify-email-page';

/** `/verify-email?token=…` */
export default function VerifyEmailRoute() {
  return <VerifyEmailPage />;
}

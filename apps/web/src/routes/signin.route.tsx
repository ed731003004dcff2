import { SignInPage } from '../features/auth/signin-page';

/** `/signin` */
export default function SigninRoute() {
  return <SignInPage />;
}

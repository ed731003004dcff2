import { ProfilePage } from '../features/account/profile-page';

/** `/account/profile` */
export default function AccountProfileRoute() {
  return <ProfilePage />;
}

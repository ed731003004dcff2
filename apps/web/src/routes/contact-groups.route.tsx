import { ContactGroupsPage } from '../features/dashboard/address-book/contact-groups-page';

/** `/dashboard/contact-groups` */
export default function ContactGroupsRoute() {
  return <ContactGroupsPage />;
}

import { AddressBookPage } from '../features/dashboard/address-book/address-book-page';

/** `/dashboard/address-book` (and its #my-groups tab) */
export default function AddressBookRoute() {
  return <AddressBookPage />;
}

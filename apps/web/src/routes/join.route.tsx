import { JoinPage } from '../features/team/join-page';

/** `/join?token=…` */
export default function JoinRoute() {
  return <JoinPage />;
}

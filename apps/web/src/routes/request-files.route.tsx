import { RequestFilesPage } from '../features/receive/request-files-page';

/** `/request-files` (and `#S1`, `#S2`): the receiver, behind the sliding panel like the uploader. */
export default function RequestFilesRoute() {
  return <RequestFilesPage />;
}

import { UploaderPage } from '../features/uploader/uploader-page';

/** `/` (and `/#S1`, `/#S2`): the uploader. */
export default function UploaderRoute() {
  return <UploaderPage />;
}

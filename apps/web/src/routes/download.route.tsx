import { DownloadPage } from '../features/downloader/download-page';

/** `/dl/:transferId` and `/dl/:transferId/:fileId`: the download page. */
export default function DownloadRoute() {
  return <DownloadPage />;
}

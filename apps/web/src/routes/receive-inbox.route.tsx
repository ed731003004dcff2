import { useParams } from 'react-router';
import { PointPage } from '../features/receive/point-page';

/** `/i/:slug`: the upload page of an inbox. */
export default function ReceiveInboxRoute() {
  const { slug = '' } = useParams();
  return <PointPage key={slug.toLowerCase()} target={{ kind: 'inbox', slug: slug.toLowerCase() }} />;
}

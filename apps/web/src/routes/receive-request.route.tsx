import { useParams, useSearchParams } from 'react-router';
import { PointPage } from '../features/receive/point-page';

/** `/r/:requestId[?userSecret=…]`: the upload page of a file request (S1 personal links carry userSecret). */
export default function ReceiveRequestRoute() {
  const { requestId = '' } = useParams();
  const [params] = useSearchParams();
  const userSecret = params.get('userSecret') ?? undefined;
  return (
    <PointPage
      key={`${requestId}:${userSecret ?? ''}`}
      target={{ kind: 'request', requestId, ...(userSecret ? { userSecret } : {}) }}
    />
  );
}

import { useQuery } from '@tanstack/react-query';
import { operatorMe } from '../../lib/operator-api';
import { operatorKeys } from './operator-keys';

/**
 * Whether the signed-in user is an operator of this server: GET /api/operator/me answers 200 (404 to anyone
 * else). Asked only once `wanted` (the header's menu is open), so that page loads cost no extra call; kept apart
 * from the console so that the menu does not load the console's code.
 */
export function useIsOperator(uid: string | null, wanted: boolean): boolean {
  const me = useQuery({
    queryKey: [...operatorKeys.me, uid],
    queryFn: ({ signal }) => operatorMe(signal),
    enabled: uid !== null && wanted,
    retry: false,
    staleTime: 5 * 60_000,
  });
  return uid !== null && me.isSuccess;
}

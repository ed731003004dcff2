import { query, type TestFerry } from './harness.js';

/**
 * Where the running totals the triggers keep disagree with the rows they stand for (each list empty when none
 * does): each owned transfer's search text (migration 0043), each owner's stored bytes (owner_storage, 0043) and
 * each address's unfinished anonymous bytes (anonymous_pending, 0042).
 */
export async function runningTotalsDrift(ferry: TestFerry) {
  const searchText = await query(
    ferry,
    `SELECT id, search_text FROM transfers
      WHERE search_text IS DISTINCT FROM
            CASE WHEN owner_id IS NULL THEN NULL ELSE ferry_transfer_search_text(id, name) END`,
  );
  const storage = await query(
    ferry,
    `SELECT u.id, coalesce(s.bytes, 0) AS kept, coalesce(t.bytes, 0) AS summed
       FROM users u
       LEFT JOIN owner_storage s ON s.owner_id = u.id
       LEFT JOIN (SELECT owner_id, sum(total_size) AS bytes FROM transfers
                   WHERE expired_at IS NULL AND status NOT IN ('DELETED', 'RETAINED') GROUP BY owner_id) t
         ON t.owner_id = u.id
      WHERE coalesce(s.bytes, 0) <> coalesce(t.bytes, 0)`,
  );
  const pending = await query(
    ferry,
    `SELECT coalesce(p.client_ip, t.client_ip) AS client_ip, coalesce(p.bytes, 0) AS kept,
            coalesce(t.bytes, 0) AS summed
       FROM anonymous_pending p
       FULL JOIN (SELECT client_ip, sum(total_size) AS bytes FROM transfers
                   WHERE status = 'UPLOADING' AND client_ip IS NOT NULL GROUP BY client_ip) t
         ON t.client_ip = p.client_ip
      WHERE coalesce(p.bytes, 0) <> coalesce(t.bytes, 0)`,
  );
  return { searchText, storage, pending };
}

/**
 * Runs `task` over `items`, at most `limit` at a time. On the first failure no new task starts, `onFail` is
 * called (to abort the running ones) and that first error is thrown once all have stopped.
 */
export async function pool<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
  onFail: () => void = () => undefined,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        if (!failure) {
          failure = { error };
          onFail();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

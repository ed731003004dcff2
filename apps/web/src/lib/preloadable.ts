/**
 * A lazy import that can be started before it is drawn (`load()` from a router's loader or on a first click),
 * and that `React.lazy` reads in the same render once the module has arrived. A plain promise always makes
 * React.lazy wait one turn, and the page is drawn without the part first and with it a moment later: the page
 * jumps (layout shift). After arrival, `load()` answers a promise whose `then` calls back at once.
 */
export function preloadable<M>(load: () => Promise<M>): () => Promise<M> {
  let arrived: { module: M } | null = null;
  let pending: Promise<M> | null = null;
  return () => {
    if (arrived) return settledWith(arrived.module);
    pending ??= load().then(
      (module) => {
        arrived = { module };
        return module;
      },
      (error: unknown) => {
        // tried again next time (a chunk that could not be fetched, e.g. offline)
        pending = null;
        throw error;
      },
    );
    return pending;
  };
}

/** A promise of `value` whose `then` runs its callback synchronously (what React.lazy needs to skip waiting). */
function settledWith<M>(value: M): Promise<M> {
  const promise = Promise.resolve(value);
  const then = <A = M, B = never>(
    onFulfilled?: ((value: M) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> => {
    try {
      return Promise.resolve(onFulfilled ? onFulfilled(value) : (value as unknown as A));
    } catch (error) {
      return onRejected ? Promise.resolve(onRejected(error)) : Promise.reject(error);
    }
  };
  // biome-ignore lint/suspicious/noThenProperty: a synchronous `then` is the point (React.lazy reads it)
  promise.then = then as unknown as typeof promise.then;
  return promise as Promise<M>;
}

/**
 * One load shared by every caller (a chunk, a language's texts): the first call starts it, later
 * calls get the same promise. A failed load is forgotten, so the next call tries again — a chunk
 * lost to a moment off the network must not stay lost for the rest of the visit.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    }));
}

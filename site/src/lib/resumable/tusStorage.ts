// What this browser remembers of unfinished resumable uploads: tus-js-client's URL storage
// (localStorage keys "tus::<fingerprint>::<n>"). The fingerprint ends with the user, so one
// account never lists, continues or forgets another's uploads in a shared browser. Uploads with a
// target (an admin's ROMs from the games page) are not the file cloud's and are not listed.
// tus-js-client is loaded on first use (these run only for a signed-in user), not with the page.
const urlStorage = async () => (await import('tus-js-client')).defaultOptions.urlStorage;

/** The end of a fingerprint that names the user. */
export const userMark = (userId: number) => `-user-${userId}`;

export interface RememberedUpload {
  /** The URL storage key (to forget it). */
  key: string;
  url: string;
  name: string;
  size: number;
}

/** The user's unfinished uploads this browser remembers, newest first. */
export async function rememberedUploads(userId: number): Promise<RememberedUpload[]> {
  let all: Awaited<ReturnType<Awaited<ReturnType<typeof urlStorage>>['findAllUploads']>>;
  try {
    all = await (await urlStorage()).findAllUploads();
  } catch {
    return [];
  }
  const mark = `${userMark(userId)}::`;
  return all
    // An admin's ROM uploads (features/games, metadata target) are the games page's, not files.
    .filter((u) => u.uploadUrl && u.urlStorageKey.includes(mark) && !u.metadata?.target)
    .sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))
    .map((u) => ({ key: u.urlStorageKey, url: u.uploadUrl!, name: u.metadata?.filename ?? '', size: u.size ?? 0 }));
}

/** Forgets a remembered upload here (not on the server). */
export function forgetRemembered(key: string): Promise<void> {
  return urlStorage()
    .then((storage) => storage.removeUpload(key))
    .catch(() => undefined);
}

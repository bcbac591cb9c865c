// Save states per game, in this page's IndexedDB. The player frame is sandboxed without
// allow-same-origin (an opaque origin has no IndexedDB of its own), so it sends its state here
// over postMessage and asks for it back.
const DB_NAME = 'devhub-games';
const STORE = 'saveStates';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function withStore<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** The key of a game's state: its core and ROM path (one slot per game). */
export function stateKey(core: string, gamePath: string): string {
  return `${core}:${gamePath}`;
}

export interface SavedState {
  data: Uint8Array;
  savedAt: number;
  /** A small PNG of the frame, shown with "continue where you left off". */
  shot?: Uint8Array;
}

export function putState(key: string, data: Uint8Array, shot?: Uint8Array): Promise<unknown> {
  const value: SavedState = { data, savedAt: Date.now(), ...(shot ? { shot } : {}) };
  return withStore('readwrite', (s) => s.put(value, key));
}

export async function getState(key: string): Promise<SavedState | null> {
  const v = await withStore<SavedState | undefined>('readonly', (s) => s.get(key) as IDBRequest<SavedState | undefined>);
  return v && v.data instanceof Uint8Array ? v : null;
}

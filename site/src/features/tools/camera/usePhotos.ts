// The gallery's photos live in this page only: blobs with object URLs, revoked on delete and
// when the page is left.
import { useCallback, useEffect, useRef, useState } from 'react';
import { photoFileName } from './photo';

export interface Photo {
  id: string;
  blob: Blob;
  url: string;
  timestamp: number;
  name: string;
}

export function usePhotos() {
  const [photos, setPhotos] = useState<Photo[]>([]);
  const urls = useRef(new Set<string>());
  const seq = useRef(0);

  const add = useCallback((blob: Blob, timestamp = Date.now()) => {
    const url = URL.createObjectURL(blob);
    urls.current.add(url);
    const photo: Photo = { id: `${timestamp}-${++seq.current}`, blob, url, timestamp, name: photoFileName(timestamp) };
    setPhotos((list) => [photo, ...list]);
    return photo;
  }, []);

  const remove = useCallback((id: string) => {
    setPhotos((list) => {
      const gone = list.find((p) => p.id === id);
      if (gone) {
        URL.revokeObjectURL(gone.url);
        urls.current.delete(gone.url);
      }
      return list.filter((p) => p.id !== id);
    });
  }, []);

  useEffect(() => {
    const all = urls.current;
    return () => {
      all.forEach((u) => URL.revokeObjectURL(u));
      all.clear();
    };
  }, []);

  return { photos, add, remove };
}

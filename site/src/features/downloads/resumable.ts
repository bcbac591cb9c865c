// A release's large file goes to the server resumably through the site's tus endpoint (the file
// cloud's /api/files/tus/, as a private file no one else sees), and the release then names it by
// its id: the server moves its bytes into the release, hashing them, and the file cloud forgets it.
import { getToken, refreshAccessToken } from '../../lib/api';

/** From this size a release file is uploaded resumably. */
export const RESUMABLE_FROM = 4 * 1024 * 1024;

/** Uploads file resumably; resolves with its file cloud id. The tus client loads only for it. */
export async function uploadResumably(file: File, onProgress: (sent: number, total: number) => void): Promise<number> {
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    const up = new Upload(file, {
      endpoint: '/api/files/tus/',
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000, 10_000],
      metadata: { filename: file.name, filetype: file.type || 'application/octet-stream', visibility: 'private' },
      onBeforeRequest: (req) => {
        const token = getToken();
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
      },
      onShouldRetry: (err) => {
        const status = (err as { originalResponse?: { getStatus(): number } }).originalResponse?.getStatus() ?? 0;
        if (status === 401) {
          void refreshAccessToken();
          return true;
        }
        return status === 0 || status >= 500;
      },
      onProgress,
      onError: reject,
      onSuccess: ({ lastResponse }) => {
        const id = Number(lastResponse.getHeader('Devhub-File-Id'));
        if (Number.isInteger(id) && id > 0) resolve(id);
        else reject(new Error('the server named no file'));
      },
    });
    void up.findPreviousUploads().then((prev) => {
      if (prev.length > 0) up.resumeFromPreviousUpload(prev[0]);
      up.start();
    });
  });
}

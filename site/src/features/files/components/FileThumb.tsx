import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '../api';
import { FILES_NS } from '../i18n';

/** The box's CSS size in pixels; thumbnails are up to 320 px, sharp on dense screens. */
export const THUMB_BOX = 48;

/** A glyph per file type, drawn in a 24-unit box with the text colour. */
const GLYPHS: Record<FileItem['type'], string> = {
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15.5 9.5a1.5 1.5 0 1 0 0 .01',
  video: 'M4 6h16v12H4zM10 9v6l5-3z',
  audio: 'M9 17V6l10-2v11M9 17a2.5 2.5 0 1 1-2.5-2.5A2.5 2.5 0 0 1 9 17zM19 15a2.5 2.5 0 1 1-2.5-2.5A2.5 2.5 0 0 1 19 15z',
  document: 'M6 3h8l4 4v14H6zM14 3v4h4M9 12h6M9 16h6',
  other: 'M6 3h8l4 4v14H6zM14 3v4h4',
};

/**
 * A file's picture in the lists: its thumbnail when the server has made one (lazy-loaded, in a
 * fixed box so rows do not move when it arrives), else — and if it fails to load — its type's icon.
 */
export function FileThumb({ file }: { file: FileItem }) {
  const { t } = useTranslation(FILES_NS);
  const [failed, setFailed] = useState<string | null>(null);
  const src = file.thumbnailUrl;
  return (
    <span className="files-thumb" data-testid={`thumb-${file.id}`}>
      {src && failed !== src ? (
        <img
          src={src}
          alt={t('list.thumbnail', { name: file.originalName })}
          width={THUMB_BOX}
          height={THUMB_BOX}
          loading="lazy"
          decoding="async"
          onError={() => setFailed(src)}
        />
      ) : (
        <svg
          className={`files-thumb__icon files-thumb__icon--${file.type}`}
          viewBox="0 0 24 24"
          width={28}
          height={28}
          aria-hidden="true"
          focusable="false"
        >
          <path d={GLYPHS[file.type] ?? GLYPHS.other} />
        </svg>
      )}
    </span>
  );
}

import { useTranslation } from 'react-i18next';
import type { Photo } from '../usePhotos';

/** The photos taken on this page, newest first, each with download and delete. */
export function Gallery({ photos, onDelete }: { photos: Photo[]; onDelete: (id: string) => void }) {
  const { t } = useTranslation('camera');
  return (
    <section className="camera-panel" aria-labelledby="camera-gallery-title">
      <h2 id="camera-gallery-title" className="camera-panel__title">
        {/* the count names the list itself ("Photos: 3"): a title beside it read "Photos Photos: 3" */}
        {t('gallery.count', { count: photos.length })}
      </h2>
      {photos.length === 0 ? (
        <p className="camera-muted">{t('gallery.empty')}</p>
      ) : (
        <ul className="camera-gallery">
          {photos.map((p) => (
            <li key={p.id} className="camera-gallery__item">
              <img src={p.url} alt={t('gallery.alt', { name: p.name })} />
              <span className="camera-gallery__name">{p.name}</span>
              <div className="camera-row">
                <a className="btn" href={p.url} download={p.name} aria-label={t('gallery.downloadName', { name: p.name })}>
                  {t('gallery.download')}
                </a>
                <button
                  type="button"
                  className="btn btn--ghost"
                  onClick={() => onDelete(p.id)}
                  aria-label={t('gallery.deleteName', { name: p.name })}
                >
                  {t('gallery.delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

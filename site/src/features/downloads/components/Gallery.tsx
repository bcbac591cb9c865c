import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/Modal';
import type { DownloadEntry } from '../api';
import { DOWNLOADS_NS } from '../i18n';

type Image = DownloadEntry['screenshots'][number];

/**
 * Screenshots as thumbnails; one opens in a lightbox that the arrow keys (and Home/End) page
 * through and Escape closes.
 */
export function Gallery({ images, name }: { images: readonly Image[]; name: string }) {
  const { t } = useTranslation(DOWNLOADS_NS);
  const [open, setOpen] = useState<number | null>(null);
  if (images.length === 0) return null;
  const total = images.length;
  const go = (i: number) => setOpen(((i % total) + total) % total);
  const onKey = (e: KeyboardEvent) => {
    if (open === null) return;
    const to = e.key === 'ArrowRight' ? open + 1 : e.key === 'ArrowLeft' ? open - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? total - 1 : null;
    if (to !== null) {
      e.preventDefault();
      go(to);
    }
  };
  return (
    <>
      <ul className="dl-gallery">
        {images.map((img, i) => (
          <li key={img.id}>
            <button type="button" className="dl-gallery__thumb" onClick={() => setOpen(i)} aria-label={t('gallery.open', { n: i + 1, total })}>
              <img src={img.url} alt="" loading="lazy" width={240} height={150} />
            </button>
          </li>
        ))}
      </ul>
      {open !== null ? (
        <Modal title={t('gallery.dialog', { n: open + 1, total })} onClose={() => setOpen(null)} closeLabel={t('gallery.close')} className="dl-lightbox">
          <div className="dl-lightbox__body" onKeyDown={onKey}>
            <img src={images[open].url} alt={`${name} — ${t('gallery.dialog', { n: open + 1, total })}`} />
            {total > 1 ? (
              <div className="dl-lightbox__nav">
                <button type="button" className="btn" onClick={() => go(open - 1)} data-autofocus>
                  {t('gallery.prev')}
                </button>
                <button type="button" className="btn" onClick={() => go(open + 1)}>
                  {t('gallery.next')}
                </button>
              </div>
            ) : null}
          </div>
        </Modal>
      ) : null}
    </>
  );
}

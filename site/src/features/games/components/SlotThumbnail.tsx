import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_SLOTS, useStateScreenshot, type AccountState } from '../accountStates';
import { GAMES_NS } from '../i18n';

/** The box every slot picture takes, set on the img so nothing moves when it arrives. */
export const THUMB_BOX = { width: 96, height: 72 } as const;

/** An object URL for image while it is shown (made in an effect, so it is revoked exactly once). */
function useObjectUrl(image: Blob | Uint8Array | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image) {
      setUrl(null);
      return;
    }
    const blob = image instanceof Blob ? image : new Blob([image as BlobPart], { type: 'image/png' });
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [image]);
  return url;
}

/** A save slot's picture, or an empty box of the same size while there is none. */
export function SlotThumbnail({ image, alt }: { image: Blob | Uint8Array | null | undefined; alt: string }) {
  const url = useObjectUrl(image);
  if (!url) return <span className="games-thumb games-thumb--empty" aria-hidden="true" />;
  return <img className="games-thumb" src={url} alt={alt} width={THUMB_BOX.width} height={THUMB_BOX.height} />;
}

/** The thumbnail of an account slot, fetched when the slot has one. */
export function AccountSlotThumbnail({ gameId, state, alt }: { gameId: number; state: AccountState | undefined; alt: string }) {
  const shot = useStateScreenshot(gameId, state);
  return <SlotThumbnail image={shot.data} alt={alt} />;
}

interface ListProps {
  gameId: number;
  states: AccountState[] | undefined;
  selected: string;
  onSelect: (slot: (typeof ACCOUNT_SLOTS)[number]) => void;
  formatDate: (iso: string) => string;
}

/** The account slots 1–5 with their pictures and times; choosing one selects it for Save and Load. */
export function AccountSlotList({ gameId, states, selected, onSelect, formatDate }: ListProps) {
  const { t } = useTranslation(GAMES_NS);
  return (
    <ul className="games-slots" aria-label={t('saves.accountSaves')}>
      {ACCOUNT_SLOTS.map((n) => {
        const s = states?.find((x) => x.slot === n);
        return (
          <li key={n}>
            <button type="button" className="games-slots__slot" aria-pressed={selected === n} onClick={() => onSelect(n)}>
              {/* alt="": the button's text names the slot, a picture named too would say it twice */}
              <AccountSlotThumbnail gameId={gameId} state={s} alt="" />
              <span>
                {s ? t('saves.accountSlotSaved', { slot: n, when: formatDate(s.updatedAt) }) : t('saves.accountSlotEmpty', { slot: n })}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../lib/i18n';
import { playerUrl, type Game } from '../api';
import { CHANNEL, isMessage, type Body, type FromPlayer, type ToPlayer } from '../emulator/protocol';
import { GAMES_NS } from '../i18n';
import { getState, putState, stateKey } from '../saveStates';

interface Props {
  game: Game;
  core: string;
  onClose: () => void;
}

/**
 * The emulator page in an iframe sandboxed with allow-scripts only — never together with
 * allow-same-origin, which would let the frame lift its own sandbox. The frame has an opaque
 * origin, so this page keeps its save states (IndexedDB) and answers its messages.
 */
export function Player({ game, core, onClose }: Props) {
  const { t } = useTranslation(GAMES_NS);
  const frame = useRef<HTMLIFrameElement>(null);
  const key = stateKey(core, game.path);

  useEffect(() => {
    const reply = (msg: Body<ToPlayer>) =>
      // The sandboxed frame's origin is opaque ("null"), so it cannot be named as the target;
      // the message goes to this frame's window object only.
      frame.current?.contentWindow?.postMessage({ channel: CHANNEL, ...msg }, '*');
    const onMessage = async (e: MessageEvent) => {
      if (!frame.current || e.source !== frame.current.contentWindow || !isMessage<FromPlayer>(e.data)) return;
      const msg = e.data;
      switch (msg.type) {
        case 'started': {
          const saved = await getState(key).catch(() => null);
          reply({ type: 'has-state', exists: !!saved });
          break;
        }
        case 'save-state':
          if (!(msg.data instanceof Uint8Array)) return;
          try {
            await putState(key, msg.data);
            reply({ type: 'state-saved', ok: true });
          } catch {
            reply({ type: 'state-saved', ok: false });
          }
          break;
        case 'load-state': {
          const saved = await getState(key).catch(() => null);
          reply({ type: 'state', data: saved?.data ?? null });
          break;
        }
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [key]);

  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Bring the whole player (title, screen, toolbar) into view under the sticky header; the
    // list may have been scrolled far down.
    root.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
    frame.current?.focus({ preventScroll: true });
  }, [game.id]);

  return (
    <div className="games-player" ref={root}>
      <div className="games-player__bar">
        <h2 className="games-player__title">{game.name}</h2>
        <button type="button" className="btn" onClick={onClose}>
          {t('closeGame')}
        </button>
      </div>
      <iframe
        key={`${core}:${game.id}`}
        ref={frame}
        className="games-player__frame"
        title={t('playerTitle', { name: game.name })}
        src={playerUrl(core, game, currentLanguage())}
        sandbox="allow-scripts"
        allow="fullscreen; gamepad; autoplay; screen-wake-lock"
        onLoad={() => frame.current?.focus({ preventScroll: true })}
      />
      <p className="games-muted games-player__hint">{t('keysHint')}</p>
    </div>
  );
}

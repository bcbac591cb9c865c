import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth';
import { currentLanguage } from '../../../lib/i18n';
import { scrollBehavior } from '../../../lib/motion';
import {
  ACCOUNT_AUTOSAVE_MS,
  ACCOUNT_SLOTS,
  accountStatesQuery,
  keepAutosave,
  loadAccountState,
  StateRefused,
  useAccountStates,
  useMarkPlayed,
  useSaveAccountState,
} from '../accountStates';
import { playerUrl, useControls, useSaveControls, type Game } from '../api';
import { gameKeys } from '../keys';
import { CHANNEL, isMessage, type Body, type FromPlayer, type ToPlayer } from '../emulator/protocol';
import { GAMES_NS } from '../i18n';
import { getState, putState, stateKey } from '../saveStates';
import { rememberPlayed } from '../shelf';
import { DEFAULT_CONTROLS, effective, type Controls } from '../controls';
import { ControlsPanel } from './ControlsPanel';
import { AccountSlotList, AccountSlotThumbnail, SlotThumbnail } from './SlotThumbnail';
import { MAX_THUMB_BYTES } from '../emulator/thumbnail';
import { Select } from '../../../components/ui/Field';

interface Props {
  game: Game;
  core: string;
  onClose: () => void;
}

/** The browser slot (this device's IndexedDB) or an account slot 1–5. */
type Slot = 'browser' | (typeof ACCOUNT_SLOTS)[number];

/**
 * The emulator page in an iframe sandboxed with allow-scripts only — never together with
 * allow-same-origin, which would let the frame lift its own sandbox. The frame has an opaque
 * origin, so this page keeps its save states (IndexedDB for the browser slot and a guest's
 * autosave, the server for a signed-in player's slots and autosave) and answers its messages.
 */
export function Player({ game, core, onClose }: Props) {
  const { t, i18n } = useTranslation(GAMES_NS);
  const { user } = useAuth();
  const signedIn = !!user;
  const frame = useRef<HTMLIFrameElement>(null);
  const key = stateKey(core, game.path);
  const autoKey = `${key}:auto`;
  const [slot, setSlot] = useState<Slot>('browser');
  const [message, setMessage] = useState('');
  // The player's controls for this console: the server's when signed in, else this browser's.
  const controls = useControls(game.console);
  const saveControls = useSaveControls(game.console);
  const mapping = useMemo(() => effective(controls.data ?? DEFAULT_CONTROLS), [controls.data]);
  // The frame has started (it takes a mapping from then on) and the mapping to give it.
  const started = useRef(false);
  const mappingRef = useRef(mapping);
  const [controlsOpen, setControlsOpen] = useState(false);
  // shot: the browser autosave's picture (an account autosave's comes from the server).
  const [offer, setOffer] = useState<{ from: 'account' | 'browser'; shot?: Uint8Array } | null>(null);
  const queryClient = useQueryClient();
  const states = useAccountStates(game.id, signedIn);
  const { mutate: played } = useMarkPlayed();
  const { mutateAsync: saveToAccount } = useSaveAccountState(game.id);
  // The newest autosave the frame sent (with its thumbnail); kept when the player is left.
  const lastAuto = useRef<{ data: Uint8Array; shot?: Uint8Array } | null>(null);
  const keptAuto = useRef<Uint8Array | null>(null);
  // Resolves when the frame answers a capture of the autosave (closing the game).
  const autoWaiter = useRef<(() => void) | null>(null);

  const reply = useCallback(
    (msg: Body<ToPlayer>) =>
      // The sandboxed frame's origin is opaque ("null"), so it cannot be named as the target;
      // the message goes to this frame's window object only.
      frame.current?.contentWindow?.postMessage({ channel: CHANNEL, ...msg }, '*'),
    [],
  );

  const keepAuto = useCallback(() => {
    const auto = lastAuto.current;
    if (!auto || auto.data === keptAuto.current) return;
    keptAuto.current = auto.data;
    if (signedIn) void keepAutosave(game.id, core, auto.data, auto.shot);
    else void putState(autoKey, auto.data, auto.shot).catch(() => undefined);
  }, [signedIn, game.id, core, autoKey]);

  // Leaving the page (another tab, closing it, another route, closing the game) keeps the autosave.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') keepAuto();
    };
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', keepAuto);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', keepAuto);
      keepAuto();
    };
  }, [keepAuto]);

  // A signed-in player's autosave also goes to the account every minute while the game runs
  // (keepAuto skips it when the frame sent nothing new — a paused game sends nothing), so a tab
  // closed hard loses at most a minute even when the state is too large for a keepalive request.
  useEffect(() => {
    if (!signedIn) return;
    const timer = window.setInterval(keepAuto, ACCOUNT_AUTOSAVE_MS);
    return () => window.clearInterval(timer);
  }, [signedIn, keepAuto]);

  useEffect(() => {
    const onMessage = async (e: MessageEvent) => {
      if (!frame.current || e.source !== frame.current.contentWindow || !isMessage<FromPlayer>(e.data)) return;
      const msg = e.data;
      switch (msg.type) {
        case 'started': {
          started.current = true;
          reply({ type: 'keymap', map: mappingRef.current.keys, pad: mappingRef.current.pad });
          const saved = await getState(key).catch(() => null);
          reply({ type: 'has-state', exists: !!saved });
          if (signedIn) {
            played(game.id);
            // Another device may have saved since the list was read: ask again now.
            const list = await queryClient.fetchQuery({ ...accountStatesQuery(game.id), staleTime: 0 }).catch(() => null);
            if (list?.some((s) => s.slot === 'auto' && s.core === core)) setOffer({ from: 'account' });
          } else {
            rememberPlayed(game);
            void queryClient.invalidateQueries({ queryKey: gameKeys.shelfAll });
            const auto = await getState(autoKey).catch(() => null);
            if (auto) setOffer({ from: 'browser', shot: auto.shot });
          }
          break;
        }
        case 'save-state': {
          if (!(msg.data instanceof Uint8Array)) return;
          const shot = msg.shot instanceof Uint8Array && msg.shot.byteLength <= MAX_THUMB_BYTES ? msg.shot : undefined;
          if (msg.slot === 'auto') {
            lastAuto.current = { data: msg.data, shot };
            autoWaiter.current?.();
            if (document.visibilityState === 'hidden') keepAuto();
            return;
          }
          if (msg.slot && msg.slot !== 'browser') {
            const n = msg.slot;
            try {
              await saveToAccount({ slot: n, core, data: msg.data, shot });
              setMessage(t('saves.savedAccount', { slot: n }));
            } catch {
              setMessage(t('saves.saveFailed'));
            }
            return;
          }
          try {
            await putState(key, msg.data);
            reply({ type: 'state-saved', ok: true });
            if (msg.slot) setMessage(t('saves.savedBrowser'));
          } catch {
            reply({ type: 'state-saved', ok: false });
          }
          break;
        }
        case 'load-state': {
          const saved = await getState(key).catch(() => null);
          reply({ type: 'state', data: saved?.data ?? null });
          break;
        }
        case 'screenshot': {
          if (!(msg.data instanceof Uint8Array)) return;
          // The sandboxed frame may not download; this page saves the PNG for it.
          const url = URL.createObjectURL(new Blob([msg.data as BlobPart], { type: 'image/png' }));
          const a = document.createElement('a');
          a.href = url;
          a.download = `${game.name.replace(/[\\/:*?"<>|]+/g, '_')}-${new Date().toISOString().replace(/[:.]/g, '-')}.png`;
          document.body.append(a);
          a.click();
          a.remove();
          window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
          break;
        }
        case 'state-applied':
          if (!msg.ok) setMessage(t('saves.corrupt'));
          break;
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [key, autoKey, signedIn, game, core, reply, keepAuto, t, queryClient, played, saveToAccount]);

  // The running game follows the mapping: when it loads (from the server, after the game started)
  // and when it changes.
  useEffect(() => {
    mappingRef.current = mapping;
    if (started.current) reply({ type: 'keymap', map: mapping.keys, pad: mapping.pad });
  }, [mapping, reply]);

  const changeControls = (next: Controls | null) => {
    saveControls.mutate(next, { onError: () => setMessage(t('controls.saveFailed')) });
    // The game's screen keeps the focus from moving when clicked: give the keys back to the game.
    frame.current?.focus({ preventScroll: true });
  };

  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Bring the whole player (title, screen, toolbar) into view under the sticky header; the
    // list may have been scrolled far down.
    root.current?.scrollIntoView?.({ block: 'start', behavior: scrollBehavior() });
    frame.current?.focus({ preventScroll: true });
  }, [game.id]);

  const loadFrom = async (from: Slot | 'auto', where: 'account' | 'browser') => {
    setMessage('');
    try {
      let data: Uint8Array | null;
      if (where === 'browser') data = (await getState(from === 'auto' ? autoKey : key))?.data ?? null;
      else data = await loadAccountState(game.id, from, core);
      if (!data) {
        setMessage(t('saves.empty'));
        return;
      }
      reply({ type: 'state', data });
      setMessage(t('saves.loaded'));
    } catch (err) {
      if (err instanceof StateRefused) {
        setMessage(err.reason === 'wrong_core' ? t('saves.wrongCore', { have: err.core, want: core }) : t('saves.corrupt'));
      } else setMessage(t('saves.loadFailed'));
    }
    frame.current?.focus({ preventScroll: true });
  };

  /** Closing the game takes a fresh autosave first (the frame answers within a frame or two). */
  const close = async () => {
    await new Promise<void>((resolve) => {
      const timer = window.setTimeout(resolve, 1000);
      autoWaiter.current = () => {
        window.clearTimeout(timer);
        resolve();
      };
      reply({ type: 'capture', slot: 'auto' });
    });
    autoWaiter.current = null;
    onClose();
  };

  const save = () => {
    setMessage('');
    reply({ type: 'capture', slot });
  };

  const fmt = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const autoState = states.data?.find((s) => s.slot === 'auto');
  const slotLabel = (n: string) => {
    const s = states.data?.find((x) => x.slot === n);
    return s
      ? t('saves.accountSlotSaved', { slot: n, when: fmt.format(new Date(s.updatedAt)) })
      : t('saves.accountSlotEmpty', { slot: n });
  };

  return (
    <div className="games-player" ref={root}>
      <div className="games-player__bar">
        <h2 className="games-player__title">{game.name}</h2>
        <button type="button" className="btn" onClick={() => void close()}>
          {t('closeGame')}
        </button>
      </div>
      {offer ? (
        <div className="games-continue" role="region" aria-label={t('saves.continueTitle')}>
          {offer.from === 'account' ? (
            <AccountSlotThumbnail gameId={game.id} state={autoState} alt={t('saves.autoThumbAlt')} />
          ) : (
            <SlotThumbnail image={offer.shot} alt={t('saves.autoThumbAlt')} />
          )}
          <span>{t('saves.continueText')}</span>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setOffer(null);
              void loadFrom('auto', offer.from);
            }}
          >
            {t('saves.continue')}
          </button>
          <button type="button" className="btn" onClick={() => setOffer(null)}>
            {t('saves.startOver')}
          </button>
        </div>
      ) : null}
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
      <div className="games-saves" role="group" aria-label={t('saves.title')}>
        <label>
          {t('saves.slot')}{' '}
          <Select value={slot} onChange={(e) => setSlot(e.target.value as Slot)}>
            <option value="browser">{t('saves.browserSlot')}</option>
            {signedIn ? ACCOUNT_SLOTS.map((n) => (
              <option key={n} value={n}>
                {slotLabel(n)}
              </option>
            )) : null}
          </Select>
        </label>
        <button type="button" className="btn" onClick={save}>
          {t('saves.save')}
        </button>
        <button type="button" className="btn" onClick={() => void loadFrom(slot, slot === 'browser' ? 'browser' : 'account')}>
          {t('saves.load')}
        </button>
        <button
          type="button"
          className="btn"
          aria-expanded={controlsOpen}
          onClick={() => setControlsOpen((o) => !o)}
        >
          {t('controls.open')}
        </button>
        {!signedIn ? <span className="games-muted">{t('saves.signInHint')}</span> : null}
        {signedIn ? (
          <AccountSlotList
            gameId={game.id}
            states={states.data}
            selected={slot}
            onSelect={setSlot}
            formatDate={(iso) => fmt.format(new Date(iso))}
          />
        ) : null}
        <p className="games-saves__status" role="status">
          {message}
        </p>
      </div>
      {controlsOpen ? (
        <ControlsPanel
          keys={mapping.keys}
          pad={mapping.pad}
          onChange={(next) => changeControls({ ...(controls.data ?? DEFAULT_CONTROLS), ...next })}
          onReset={() => changeControls(null)}
        />
      ) : null}
      <p className="games-muted games-player__hint">{t('keysHint')}</p>
    </div>
  );
}

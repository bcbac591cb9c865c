import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BINDABLE, bindKey, bindPad, newlyPressed, type ButtonId } from '../emulator/input';
import { keyLabel } from '../controls';
import { GAMES_NS } from '../i18n';

interface Props {
  keys: Record<string, ButtonId>;
  pad: Record<number, ButtonId>;
  onChange: (next: { keys?: Record<string, ButtonId>; pad?: Record<number, ButtonId> }) => void;
  onReset: () => void;
}

/** How often the panel reads the gamepads while it waits for a button (the Gamepad API has no events for buttons). */
export const PAD_POLL_MS = 50;

const hasGamepads = () => typeof navigator !== 'undefined' && typeof navigator.getGamepads === 'function';

/**
 * Binding each button of this console: press a key, or a gamepad button, to bind it; Escape
 * cancels. Gamepads are read by polling navigator.getGamepads() only while a binding waits.
 * A Change button is a toggle (aria-pressed while it waits): its aria-label names what it binds,
 * so a screen reader would not hear the "Press a key…" its text turns into.
 */
export function ControlsPanel({ keys, pad, onChange, onReset }: Props) {
  const { t } = useTranslation(GAMES_NS);
  const [waiting, setWaiting] = useState<{ id: ButtonId; kind: 'key' | 'pad' } | null>(null);
  // The newest props, so a wait (and the pads' state it has seen) lasts across re-renders.
  const latest = useRef({ keys, pad, onChange });
  useEffect(() => {
    latest.current = { keys, pad, onChange };
  });

  useEffect(() => {
    if (waiting === null) return;
    const onKey = (e: KeyboardEvent) => {
      e.preventDefault();
      e.stopPropagation();
      const { keys, onChange } = latest.current;
      if (e.code !== 'Escape' && waiting.kind === 'key') onChange({ keys: bindKey(keys, waiting.id, e.code) });
      if (e.code === 'Escape' || waiting.kind === 'key') setWaiting(null);
    };
    window.addEventListener('keydown', onKey, true);
    let timer: number | undefined;
    if (waiting.kind === 'pad' && hasGamepads()) {
      const held = new Map<number, Set<number>>();
      newlyPressed(navigator.getGamepads(), held, true);
      timer = window.setInterval(() => {
        const index = newlyPressed(navigator.getGamepads(), held);
        if (index === undefined) return;
        window.clearInterval(timer);
        const { pad, onChange } = latest.current;
        onChange({ pad: bindPad(pad, waiting.id, index) });
        setWaiting(null);
      }, PAD_POLL_MS);
    }
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.clearInterval(timer);
    };
  }, [waiting]);

  const padLabel = (i: number) => {
    const dpad: Record<number, string> = { 12: '↑', 13: '↓', 14: '←', 15: '→' };
    return dpad[i] ? t('controls.padDpad', { dir: dpad[i] }) : t('controls.padButton', { n: i });
  };

  return (
    <section className="games-controls" aria-label={t('controls.title')}>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('controls.button')}</th>
            <th scope="col" colSpan={2}>
              {t('controls.keyboard')}
            </th>
            {hasGamepads() ? (
              <th scope="col" colSpan={2}>
                {t('controls.gamepad')}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {BINDABLE.map(([name, id]) => {
            const keyNames = Object.entries(keys)
              .filter(([, b]) => b === id)
              .map(([code]) => keyLabel(code));
            const padNames = Object.entries(pad)
              .filter(([, b]) => b === id)
              .map(([i]) => padLabel(Number(i)));
            const waitingHere = (kind: 'key' | 'pad') => waiting?.id === id && waiting.kind === kind;
            return (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{keyNames.length ? keyNames.join(', ') : t('controls.none')}</td>
                <td>
                  <button
                    type="button"
                    className="btn"
                    aria-label={t('controls.bind', { button: name })}
                    aria-pressed={waitingHere('key')}
                    onClick={() => setWaiting(waitingHere('key') ? null : { id, kind: 'key' })}
                  >
                    {waitingHere('key') ? t('controls.pressKey') : t('controls.change')}
                  </button>
                </td>
                {hasGamepads() ? (
                  <>
                    <td>{padNames.length ? padNames.join(', ') : t('controls.none')}</td>
                    <td>
                      <button
                        type="button"
                        className="btn"
                        aria-label={t('controls.bindPad', { button: name })}
                        aria-pressed={waitingHere('pad')}
                        onClick={() => setWaiting(waitingHere('pad') ? null : { id, kind: 'pad' })}
                      >
                        {waitingHere('pad') ? t('controls.pressPad') : t('controls.change')}
                      </button>
                    </td>
                  </>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" className="btn" onClick={onReset}>
        {t('controls.reset')}
      </button>
    </section>
  );
}

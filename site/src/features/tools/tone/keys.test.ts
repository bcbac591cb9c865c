import { describe, expect, it } from 'vitest';
import { keyAction, keyBelongsToTarget } from './keys';

describe('keyAction', () => {
  it.each([
    [{ key: ' ' }, { type: 'toggle' }],
    [{ key: 'ArrowRight' }, { type: 'nudge', direction: 1, shift: false, fine: false }],
    [{ key: 'ArrowLeft' }, { type: 'nudge', direction: -1, shift: false, fine: false }],
    [{ key: 'ArrowRight', shiftKey: true }, { type: 'nudge', direction: 1, shift: true, fine: false }],
    [{ key: 'ArrowLeft', ctrlKey: true }, { type: 'nudge', direction: -1, shift: false, fine: true }],
    [{ key: 'ArrowRight', metaKey: true }, { type: 'nudge', direction: 1, shift: false, fine: true }],
    [{ key: 'ArrowUp' }, { type: 'semitone', semitones: 1 }],
    [{ key: 'ArrowDown' }, { type: 'semitone', semitones: -1 }],
    [{ key: 'a' }, null],
    [{ key: 'ArrowLeft', altKey: true }, null],
    [{ key: 'ArrowUp', ctrlKey: true }, null],
  ])('%j → %j', (e, action) => expect(keyAction(e)).toEqual(action));
});

describe('keyBelongsToTarget', () => {
  const el = (html: string) => {
    document.body.innerHTML = html;
    return document.body.firstElementChild!.querySelector('[data-t]') ?? document.body.firstElementChild!;
  };
  it('leaves typing and sliders to the field', () => {
    expect(keyBelongsToTarget(el('<input type="number">'), 'ArrowLeft')).toBe(true);
    expect(keyBelongsToTarget(el('<input type="range">'), 'ArrowUp')).toBe(true);
    expect(keyBelongsToTarget(el('<select></select>'), 'ArrowDown')).toBe(true);
  });
  it('leaves Space on a button or checkbox to it, but takes the arrows', () => {
    expect(keyBelongsToTarget(el('<button>x</button>'), ' ')).toBe(true);
    expect(keyBelongsToTarget(el('<button>x</button>'), 'ArrowLeft')).toBe(false);
    expect(keyBelongsToTarget(el('<input type="checkbox">'), ' ')).toBe(true);
    expect(keyBelongsToTarget(el('<input type="checkbox">'), 'ArrowRight')).toBe(false);
  });
  it('takes keys on the page itself and leaves those inside a dialog', () => {
    expect(keyBelongsToTarget(document.body, ' ')).toBe(false);
    expect(keyBelongsToTarget(el('<div role="dialog"><p data-t>x</p></div>'), 'ArrowLeft')).toBe(true);
    expect(keyBelongsToTarget(null, ' ')).toBe(false);
  });
});

import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { initTestI18n, LocationProbe } from '../../../test/utils';
import ToneGeneratorPage from '../pages/ToneGeneratorPage';
import { FakeAudioContext } from './fakeAudio';

function renderPage(route = '/tools/tone_generator') {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <ToneGeneratorPage />
                <LocationProbe />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

const playButton = () => screen.getByRole('button', { pressed: false, name: /^Play / });
const stopButton = () => screen.getByRole('button', { pressed: true, name: /^Stop / });
const ctx = () => FakeAudioContext.instances.at(-1)!;
const osc = () => ctx().oscillators.at(-1)!;

function setExact(value: string) {
  if (!screen.queryByRole('spinbutton', { name: 'Frequency, Hz' })) fireEvent.click(screen.getByRole('button', { name: /Exact frequency/ }));
  fireEvent.change(screen.getByRole('spinbutton', { name: 'Frequency, Hz' }), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: 'Set' }));
}

beforeAll(async () => {
  await initTestI18n('en');
});

beforeEach(() => {
  FakeAudioContext.instances = [];
  vi.stubGlobal('AudioContext', FakeAudioContext);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ToneGenerator', () => {
  it('starts at the spec defaults with every preset category closed and no audio context yet', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Tone generator' })).toBeTruthy();
    expect(playButton().textContent).toContain('▶ Play 440 Hz Sine · Mid');
    expect(screen.getByTestId('tone-note').textContent).toContain('Note A4, 0 cents');
    expect((screen.getByRole('checkbox', { name: 'Continuous playback' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/Volume/).textContent).toContain('Volume: 50.00 %');
    expect(screen.getByRole('button', { name: 'Sine' }).getAttribute('aria-pressed')).toBe('true');
    const toggles = screen.getAllByRole('button', { expanded: false }).filter((b) => b.classList.contains('tone-presets__toggle'));
    expect(toggles).toHaveLength(9);
    expect(screen.queryByRole('button', { name: /^Play 440 Hz$/ })).toBeNull();
    expect(screen.getByText(/Mid band, 301–800 Hz/).textContent).toContain('active');
    expect(FakeAudioContext.instances).toHaveLength(0);
  });

  it('plays, updates frequency, volume and waveform live, and stops', () => {
    renderPage();
    fireEvent.click(playButton());
    expect(FakeAudioContext.instances).toHaveLength(1);
    expect(osc().type).toBe('sine');
    expect(osc().frequency.value).toBe(440);
    expect(ctx().gains[0].gain.value).toBe(0.5);
    expect(stopButton().textContent).toContain('■ Stop 440 Hz Sine · Mid');

    // a new waveform crossfades into a new voice; the old one fades out
    fireEvent.click(screen.getByRole('button', { name: 'Square' }));
    expect(ctx().oscillators).toHaveLength(2);
    expect(ctx().oscillators[0].stoppedAt).not.toBeNull();
    expect(ctx().gains[0].gain.value).toBe(0);
    expect(osc().type).toBe('square');
    expect(ctx().gains[1].gain.value).toBe(0.5);
    setExact('1000');
    fireEvent.change(screen.getByRole('slider', { name: /Volume/i }), { target: { value: '35.55' } });
    expect(ctx().oscillators).toHaveLength(2); // frequency and volume change the same voice in place
    expect(osc().frequency.value).toBe(1000);
    expect(ctx().gains[1].gain.value).toBe(0.3555);
    expect(stopButton().textContent).toContain('1.0 kHz Square · High');

    fireEvent.click(screen.getByRole('button', { name: 'Right' }));
    expect(ctx().panners[1].pan.value).toBe(1);

    fireEvent.click(stopButton());
    expect(osc().stoppedAt).not.toBeNull();
    expect(ctx().gains[1].gain.value).toBe(0); // faded out, not cut
    act(() => osc().end());
    expect(playButton()).toBeTruthy();
  });

  it('moves the frequency with the band sliders and marks the active band', () => {
    renderPage();
    fireEvent.change(screen.getByRole('slider', { name: 'Low band, 1–300 Hz' }), { target: { value: '120' } });
    expect(playButton().textContent).toContain('120 Hz Sine · Low');
    expect(screen.getByText(/Low band, 1–300 Hz/).textContent).toContain('active');
    fireEvent.change(screen.getByRole('slider', { name: 'High band, 801–21000 Hz' }), { target: { value: '15000' } });
    expect(playButton().textContent).toContain('15.0 kHz Sine · High');
    // the other sliders rest at their nearest end
    expect((screen.getByRole('slider', { name: 'Low band, 1–300 Hz' }) as HTMLInputElement).value).toBe('300');
  });

  it('a one-shot tone stops itself after 0.1 s', () => {
    renderPage();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Continuous playback' }));
    fireEvent.click(playButton());
    expect(osc().startedAt).toBe(0);
    expect(osc().stoppedAt).toBeCloseTo(0.105, 5);
    act(() => osc().end());
    expect(playButton()).toBeTruthy();
  });

  it('shows the range error for 30000, disables play, and clears it after 5 s', () => {
    vi.useFakeTimers();
    renderPage();
    setExact('30000');
    expect(screen.getByRole('alert').textContent).toContain('Frequency must be from 1 to 21000 Hz');
    expect((playButton() as HTMLButtonElement).disabled).toBe(true);
    expect(playButton().textContent).toContain('440 Hz');
    act(() => vi.advanceTimersByTime(4999));
    expect((playButton() as HTMLButtonElement).disabled).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect((playButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it.each([['0'], ['abc'], ['']])('rejects %j as an exact frequency', (value) => {
    renderPage();
    setExact(value);
    expect(screen.getByRole('alert').textContent).toContain('Frequency must be from 1 to 21000 Hz');
  });

  it('shows the Russian wording of the range error in Russian', async () => {
    await i18n.changeLanguage('ru');
    try {
      renderPage();
      fireEvent.click(screen.getByRole('button', { name: /Точная частота/ }));
      fireEvent.change(screen.getByRole('spinbutton', { name: 'Частота, Гц' }), { target: { value: '30000' } });
      fireEvent.click(screen.getByRole('button', { name: 'Установить' }));
      expect(screen.getByRole('alert').textContent).toContain('Частота должна быть от 1 до 21000 Гц');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("reports 'Audio context initialization error' when there is no Web Audio", () => {
    vi.stubGlobal('AudioContext', undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderPage();
    fireEvent.click(playButton());
    expect(screen.getByRole('alert').textContent).toContain('Audio context initialization error');
    expect((playButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it("reports 'Sound playback error' when the tone cannot start", () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(FakeAudioContext.prototype, 'createOscillator').mockImplementation(() => {
      throw new Error('boom');
    });
    renderPage();
    fireEvent.click(playButton());
    expect(screen.getByRole('alert').textContent).toContain('Sound playback error');
    expect(playButton()).toBeTruthy();
  });

  it('loops a preset 10 times 200 ms apart on the audio clock, counting down, and a plain play cancels a loop', () => {
    vi.useFakeTimers();
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Mid-high/ }));
    expect(screen.getByRole('button', { name: /Mid-high/ }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Loop 1.0 kHz' }));
    const beeps = ctx().oscillators;
    expect(beeps).toHaveLength(10);
    expect(beeps.every((o) => o.frequency.value === 1000)).toBe(true);
    const starts = beeps.map((o) => o.startedAt!);
    starts.slice(1).forEach((s, i) => expect(s - starts[i]).toBeCloseTo(0.2, 9));
    beeps.forEach((o) => expect(o.stoppedAt! - o.startedAt!).toBeCloseTo(0.105, 9));
    expect(screen.getByRole('button', { name: 'Loop 1.3 kHz' }).closest('li')!.textContent).toContain('1250 Hz · Presence');
    expect(screen.getByTestId('tone-stop-loop').textContent).toContain('Stop loop (10 left)');
    for (let left = 9; left >= 1; left--) {
      act(() => vi.advanceTimersByTime(200));
      expect(screen.getByTestId('tone-stop-loop').textContent).toContain(`Stop loop (${left} left)`);
    }
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByTestId('tone-stop-loop')).toBeNull();
    expect(screen.getByRole('button', { name: 'Loop 1.0 kHz' }).closest('li')!.getAttribute('aria-current')).toBe('true');

    // a new loop, then a plain preset play: the loop ends and its pending beeps are stopped
    fireEvent.click(screen.getByRole('button', { name: 'Loop 630 Hz' }));
    expect(screen.getByTestId('tone-stop-loop').textContent).toContain('10 left');
    const pending = ctx().oscillators.slice(-10);
    fireEvent.click(screen.getByRole('button', { name: 'Play 800 Hz' }));
    expect(screen.queryByTestId('tone-stop-loop')).toBeNull();
    expect(pending.every((o) => o.stoppedAt !== null && o.stoppedAt < 0.1)).toBe(true);
    expect(osc().frequency.value).toBe(800);
    expect(stopButton().textContent).toContain('800 Hz');
  });

  it('stop-loop cancels early', () => {
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /Ultra-low/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Loop 20 Hz' }));
    fireEvent.click(screen.getByTestId('tone-stop-loop'));
    expect(screen.queryByTestId('tone-stop-loop')).toBeNull();
    expect(ctx().oscillators.every((o) => o.stoppedAt !== null)).toBe(true);
  });

  it('custom modal: an invalid value is only logged and the modal stays; a valid one plays and is listed', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Custom' }));
    fireEvent.click(screen.getByRole('button', { name: 'Custom frequency…' }));
    const dialog = screen.getByRole('dialog', { name: 'Custom frequency' });
    const field = within(dialog).getByRole('spinbutton');
    fireEvent.change(field, { target: { value: '50000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Play' }));
    expect(warn).toHaveBeenCalledOnce();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(FakeAudioContext.instances).toHaveLength(0);

    fireEvent.change(field, { target: { value: '123.45' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Play' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(osc().frequency.value).toBe(123.45);
    expect(stopButton().textContent).toContain('123.45 Hz');
    expect(screen.getByRole('button', { name: 'Play 123.45 Hz' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Custom frequency…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keyboard: arrows nudge and step semitones, Space plays and stops; octave buttons halve and double', () => {
    renderPage();
    const key = (key: string, mods: KeyboardEventInit = {}) => fireEvent.keyDown(document.body, { key, ...mods });
    key('ArrowRight');
    expect(playButton().textContent).toContain('441 Hz');
    key('ArrowRight', { shiftKey: true });
    expect(playButton().textContent).toContain('451 Hz');
    key('ArrowLeft', { ctrlKey: true });
    expect(playButton().textContent).toContain('450.99 Hz');
    key('ArrowLeft', { metaKey: true });
    key('ArrowLeft', { shiftKey: true });
    key('ArrowLeft');
    expect(playButton().textContent).toContain('439.98 Hz');
    key('ArrowRight', { ctrlKey: true });
    key('ArrowRight', { ctrlKey: true });
    key('ArrowUp');
    expect(playButton().textContent).toContain('466.16 Hz');
    expect(screen.getByTestId('tone-note').textContent).toContain('Note A♯4, 0 cents');
    key('ArrowDown');
    expect(playButton().textContent).toContain('440 Hz');
    fireEvent.click(screen.getByRole('button', { name: /One octave up/ }));
    expect(playButton().textContent).toContain('880 Hz Sine · High');
    fireEvent.click(screen.getByRole('button', { name: /One octave down/ }));
    fireEvent.click(screen.getByRole('button', { name: /One octave down/ }));
    expect(playButton().textContent).toContain('220 Hz Sine · Low');

    key(' ');
    expect(stopButton()).toBeTruthy();
    key(' ');
    expect(playButton()).toBeTruthy();
    // typing in a field is left alone
    fireEvent.click(screen.getByRole('button', { name: /Exact frequency/ }));
    fireEvent.keyDown(screen.getByRole('spinbutton', { name: 'Frequency, Hz' }), { key: 'ArrowUp' });
    expect(playButton().textContent).toContain('220 Hz');
  });

  it('starts from the address and writes changes back to it', async () => {
    renderPage('/tools/tone_generator?f=1000&w=square&v=0.35');
    expect(playButton().textContent).toContain('1.0 kHz Square · High');
    expect(screen.getByText(/Volume/).textContent).toContain('35.00 %');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Triangle' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tools/tone_generator?f=1000&w=triangle&v=0.35'));
  });

  it('an out-of-range frequency in the address falls back to 440 with the spec error', () => {
    renderPage('/tools/tone_generator?f=30000&w=sawtooth');
    expect(screen.getByRole('alert').textContent).toContain('Frequency must be from 1 to 21000 Hz');
    expect(playButton().textContent).toContain('440 Hz Sawtooth · Mid');
    expect((playButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it('an invalid waveform or volume in the address falls back with a notice, play stays enabled', () => {
    renderPage('/tools/tone_generator?w=noise&v=7');
    expect(screen.getByText(/settings in the link were not valid/)).toBeTruthy();
    expect(playButton().textContent).toContain('440 Hz Sine');
    expect((playButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it('plays noise through a looped buffer and sweeps with its own stop', () => {
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Pink noise' }));
    fireEvent.click(playButton());
    expect(ctx().bufferSources).toHaveLength(1);
    expect(ctx().bufferSources[0].loop).toBe(true);
    expect(stopButton().textContent).toContain('Pink noise · Mid');
    fireEvent.click(stopButton());
    act(() => ctx().bufferSources[0].end());

    fireEvent.click(screen.getByRole('button', { name: 'Tone' }));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'From, Hz' }), { target: { value: '100' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'To, Hz' }), { target: { value: '1600' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Duration, s' }), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start sweep' }));
    const curve = osc().frequency.curve!;
    expect(curve[0]).toBeCloseTo(100);
    expect(curve[curve.length - 1]).toBeCloseTo(1600, 1);
    expect(curve[Math.round((curve.length - 1) / 4)]).toBeCloseTo(200, 1); // logarithmic by default
    expect(osc().stoppedAt).toBeCloseTo(4.005, 5);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sweep' }));
    act(() => osc().end());
    expect(screen.getByRole('button', { name: 'Start sweep' })).toBeTruthy();

    fireEvent.change(screen.getByRole('spinbutton', { name: 'To, Hz' }), { target: { value: '99999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start sweep' }));
    expect(screen.getByRole('alert').textContent).toMatch(/sweep needs both ends/);
  });

  it('closes the audio context when the page is left', () => {
    const view = renderPage();
    fireEvent.click(playButton());
    expect(ctx().state).toBe('running');
    view.unmount();
    expect(ctx().state).toBe('closed');
  });
});

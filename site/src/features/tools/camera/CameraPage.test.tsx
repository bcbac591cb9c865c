import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import CameraPage from '../pages/CameraPage';

beforeAll(async () => {
  await initTestI18n('ru');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function stubMedia(getUserMedia: () => Promise<MediaStream>, devices: MediaDeviceInfo[] = []) {
  vi.stubGlobal('navigator', {
    ...navigator,
    mediaDevices: {
      getUserMedia: vi.fn(getUserMedia),
      enumerateDevices: vi.fn(async () => devices),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    },
  });
}

const domError = (name: string) => Object.assign(new Error(name), { name });

describe('CameraPage', () => {
  it.each([
    ['NotAllowedError', 'Доступ к камере запрещён. Разрешите доступ в настройках браузера.'],
    ['NotFoundError', 'Камера не найдена. Проверьте подключение устройства.'],
    ['NotReadableError', 'Камера используется другим приложением.'],
    ['OverconstrainedError', 'Запрошенные параметры камеры не поддерживаются.'],
    ['WhateverError', 'Произошла ошибка при работе с камерой.'],
  ])('%s shows the spec message with Try again, cleared after 5 s', async (name, text) => {
    stubMedia(() => Promise.reject(domError(name)));
    renderWithShell(<CameraPage />);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const start = screen.getAllByRole('button').find((b) => /Включить|камер/i.test(b.textContent ?? ''))!;
    await act(async () => {
      fireEvent.click(start);
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(text);
    expect(screen.getByRole('button', { name: /Попробовать снова|Повторить/ })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(5_100);
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    [false, 'Камере нужно защищённое соединение: откройте сайт по HTTPS (или на localhost).'],
    [true, 'Неподдерживаемый тип медиа.'],
  ])('without mediaDevices (secure context: %s) says why', async (secure, text) => {
    // What a browser does on a page served over plain http from anything but localhost.
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    vi.stubGlobal('isSecureContext', secure);
    renderWithShell(<CameraPage />);
    const start = screen.getAllByRole('button').find((b) => /Включить|камер/i.test(b.textContent ?? ''))!;
    await act(async () => {
      fireEvent.click(start);
    });
    expect((await screen.findByRole('alert')).textContent).toContain(text);
  });

  it('shows the device picker only with more than one camera', async () => {
    const cam = (id: string, label: string) => ({ deviceId: id, kind: 'videoinput', label, groupId: 'g', toJSON() {} }) as MediaDeviceInfo;
    stubMedia(() => Promise.reject(domError('NotAllowedError')), [cam('a', 'Front'), cam('b', '')]);
    renderWithShell(<CameraPage />);
    const picker = await screen.findByRole('combobox');
    // An unnamed camera gets the fallback label (the Russian interface's "Camera N").
    expect(Array.from((picker as HTMLSelectElement).options).map((o) => o.textContent)).toEqual(['—', 'Front', 'Камера 2']);
  });

  it('hides the device picker with one camera', async () => {
    const cam = { deviceId: 'a', kind: 'videoinput', label: 'Only', groupId: 'g', toJSON() {} } as MediaDeviceInfo;
    stubMedia(() => Promise.reject(domError('NotAllowedError')), [cam]);
    renderWithShell(<CameraPage />);
    await screen.findByRole('heading', { level: 1 });
    await act(async () => {});
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});

describe('CameraPage switch button', () => {
  it('names the requested facing in the interface language, not as the API value', async () => {
    stubMedia(() => Promise.reject(domError('NotAllowedError')));
    renderWithShell(<CameraPage />);
    const switchButton = await screen.findByRole('button', { name: 'Переключить камеру' });
    expect(switchButton.getAttribute('title')).toBe('Сейчас запрошена: фронтальная (к пользователю)');
    await act(async () => {
      fireEvent.click(switchButton);
    });
    expect(switchButton.getAttribute('title')).toBe('Сейчас запрошена: тыльная (от пользователя)');
  });
});

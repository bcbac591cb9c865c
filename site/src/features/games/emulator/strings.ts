// The player frame's own texts. It is a separate page without the SPA's i18n; the games page
// passes its language in the `lang` query parameter.

const en = {
  loadingCore: 'Loading the emulator…',
  loadingGame: 'Starting the game…',
  badParams: 'This player needs a core and a game from this site.',
  noCore: 'The emulator core “{core}” is not installed on this server.',
  failed: 'The game could not be started: {message}',
  pause: 'Pause',
  resume: 'Resume',
  restart: 'Restart',
  fullscreen: 'Fullscreen',
  mute: 'Mute',
  unmute: 'Unmute',
  volume: 'Volume',
  save: 'Save state',
  load: 'Load state',
  keys: 'Keys',
  saved: 'State saved',
  saveFailed: 'Could not save the state',
  loaded: 'State loaded',
  loadFailed: 'This save state could not be loaded (damaged or from another version); the game goes on unchanged',
  fastForward: 'fast-forward (hold)',
  screenshot: 'Screenshot',
  screenshotTaken: 'Screenshot saved',
  screenshotFailed: 'Could not take a screenshot',
  fastForwarding: 'Fast-forward',
  noState: 'No saved state for this game yet',
  noStates: 'This core cannot save states',
  paused: 'Paused',
  dpad: 'D-pad',
  saveLoad: 'save / load state',
  helpTitle: 'Keyboard',
  gamepad: 'Gamepads work too (standard layout).',
};

type Strings = typeof en;

const uk: Strings = {
  loadingCore: 'Завантаження емулятора…',
  loadingGame: 'Запуск гри…',
  badParams: 'Плеєру потрібні ядро та гра з цього сайту.',
  noCore: 'Ядро емулятора «{core}» не встановлено на цьому сервері.',
  failed: 'Не вдалося запустити гру: {message}',
  pause: 'Пауза',
  resume: 'Продовжити',
  restart: 'Перезапуск',
  fullscreen: 'На весь екран',
  mute: 'Вимкнути звук',
  unmute: 'Увімкнути звук',
  volume: 'Гучність',
  save: 'Зберегти стан',
  load: 'Завантажити стан',
  keys: 'Клавіші',
  saved: 'Стан збережено',
  saveFailed: 'Не вдалося зберегти стан',
  loaded: 'Стан завантажено',
  loadFailed: 'Цей стан не вдалося завантажити (пошкоджений або з іншої версії); гра триває без змін',
  fastForward: 'прискорення (утримувати)',
  screenshot: 'Знімок екрана',
  screenshotTaken: 'Знімок збережено',
  screenshotFailed: 'Не вдалося зробити знімок',
  fastForwarding: 'Прискорення',
  noState: 'Для цієї гри ще немає збереженого стану',
  noStates: 'Це ядро не вміє зберігати стан',
  paused: 'Пауза',
  dpad: 'Хрестовина',
  saveLoad: 'зберегти / завантажити стан',
  helpTitle: 'Клавіатура',
  gamepad: 'Геймпади теж працюють (стандартна розкладка).',
};

const ru: Strings = {
  loadingCore: 'Загрузка эмулятора…',
  loadingGame: 'Запуск игры…',
  badParams: 'Плееру нужны ядро и игра с этого сайта.',
  noCore: 'Ядро эмулятора «{core}» не установлено на этом сервере.',
  failed: 'Не удалось запустить игру: {message}',
  pause: 'Пауза',
  resume: 'Продолжить',
  restart: 'Перезапуск',
  fullscreen: 'Во весь экран',
  mute: 'Выключить звук',
  unmute: 'Включить звук',
  volume: 'Громкость',
  save: 'Сохранить состояние',
  load: 'Загрузить состояние',
  keys: 'Клавиши',
  saved: 'Состояние сохранено',
  saveFailed: 'Не удалось сохранить состояние',
  loaded: 'Состояние загружено',
  loadFailed: 'Это состояние не удалось загрузить (повреждено или из другой версии); игра продолжается без изменений',
  fastForward: 'ускорение (удерживать)',
  screenshot: 'Снимок экрана',
  screenshotTaken: 'Снимок сохранён',
  screenshotFailed: 'Не удалось сделать снимок',
  fastForwarding: 'Ускорение',
  noState: 'Для этой игры ещё нет сохранённого состояния',
  noStates: 'Это ядро не умеет сохранять состояние',
  paused: 'Пауза',
  dpad: 'Крестовина',
  saveLoad: 'сохранить / загрузить состояние',
  helpTitle: 'Клавиатура',
  gamepad: 'Геймпады тоже работают (стандартная раскладка).',
};

const all: Record<string, Strings> = { en, uk, ru };

export type StringKey = keyof Strings;

export function strings(lang: string | null): (key: StringKey, vars?: Record<string, string>) => string {
  const table = all[lang ?? ''] ?? en;
  return (key, vars) => {
    let s = table[key] ?? en[key];
    for (const [k, v] of Object.entries(vars ?? {})) s = s.replace(`{${k}}`, v);
    return s;
  };
}

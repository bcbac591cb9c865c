import { describe, expect, it } from 'vitest';
import { privacy, terms, type LegalDocument } from './content';

// The privacy policy and the terms describe the product as it is: files are public or private,
// share links hand one file (also a private one) to whoever holds them, two-factor sign-in and
// passkeys keep their secrets as described, save states live in the account, and the policy
// names what the site keeps (accounts, sessions with their user agent and IP, the audit log, the
// activity log, uploaded files, thumbnails) — in each of the site's languages.

const text = (d: LegalDocument) => [d.title, d.intro, ...d.sections.flatMap((s) => [s.heading, ...s.paragraphs])].join('\n').toLowerCase();

const privacyMentions = {
  en: ['private file', 'share link', 'two-factor', 'passkey', 'save state', 'session', 'user agent', 'ip address', 'audit log', 'activity log', 'thumbnail', 'uploaded files', 'recovery codes only as hashes'],
  uk: ['приватний файл', 'посилання для обміну', 'двофакторн', 'passkey', 'збереження', 'сесі', 'user agent', 'ip-адрес', 'журнал аудиту', 'журнал активності', 'мініатюр', 'завантажені файли', 'резервні коди — лише як хеші'],
  ru: ['приватный файл', 'ссылки для обмена', 'двухфакторн', 'passkey', 'сохранения', 'сесси', 'user agent', 'ip-адрес', 'журнал аудита', 'журнал активности', 'миниатюр', 'загруженные файлы', 'резервные коды — только в виде хешей'],
} as const;

const termsMentions = {
  en: ['private', 'share link', 'two-factor', 'save states'],
  uk: ['приватн', 'посилання для обміну', 'двофакторн', 'збереження'],
  ru: ['приватн', 'ссылк', 'двухфакторн', 'сохранения'],
} as const;

/** What the texts said while private files existed: that every file is visible to everyone. */
const everyFileIsPublic = [
  /any visitor can list and download the files/,
  /files in the cloud are visible to every visitor/,
  /do not upload anything private/,
  /будь-який відвідувач може переглянути список файлів/,
  /файли в хмарі бачить кожен відвідувач/,
  /любой посетитель может просмотреть список файлов/,
  /файлы в облаке видит каждый посетитель/,
];

describe('the privacy policy and the terms', () => {
  it.each(Object.entries(privacyMentions))('the %s privacy policy describes private files, share links, two-factor, save states and what is kept', (lang, words) => {
    const t = text(privacy[lang as keyof typeof privacy]);
    for (const w of words) expect(t, w).toContain(w);
    for (const re of everyFileIsPublic) expect(t).not.toMatch(re);
  });

  it.each(Object.entries(termsMentions))('the %s terms describe public and private files, share links, two-factor and save states', (lang, words) => {
    const t = text(terms[lang as keyof typeof terms]);
    for (const w of words) expect(t, w).toContain(w);
    for (const re of everyFileIsPublic) expect(t).not.toMatch(re);
  });

  it.each([
    ['privacy', privacy],
    ['terms', terms],
  ] as const)('%s has the same sections and paragraphs in uk, ru and en', (_name, docs) => {
    const shape = (d: LegalDocument) => d.sections.map((s) => s.paragraphs.length);
    expect(shape(docs.uk)).toEqual(shape(docs.en));
    expect(shape(docs.ru)).toEqual(shape(docs.en));
  });
});

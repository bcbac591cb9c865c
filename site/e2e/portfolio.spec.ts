import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devhubBin, devhubEnv } from './env';
import type { Page } from '@playwright/test';
import { expect, signInNewAccount, test, uid } from './fixtures';

const repoDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const en = JSON.parse(readFileSync(join(repoDir, 'site/src/features/portfolio/profile/locales/en.json'), 'utf8')) as Record<string, unknown>;

/** No key of the portfolio namespace shows as raw text (a missing translation shows its key). */
async function expectNoRawKeys(page: Page) {
  // a missing translation renders its key as the whole text of a heading, label or line
  const lines = (await page.getByRole('main').innerText()).split('\n').map((l) => l.trim());
  const raw = lines.filter((l) => l in en || l.startsWith('langs.'));
  expect(raw).toEqual([]);
}

// The portfolio against the real binary, which reads a copy of the shipped content/profile.yaml:
// the owner on the home page, /skills and /tools from that file, icons served by the binary.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
});

test('the home page shows the owner, their links and the featured projects', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await expect(page.getByText('Olena Kovalenko')).toBeVisible();
  const avatar = page.locator('img.owner__avatar');
  await expect(avatar).toBeVisible();
  expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByRole('link', { name: 'GitHub' })).toHaveAttribute('href', 'https://github.com/example');
  const projects = page.getByRole('region', { name: 'Featured projects' });
  await expect(projects.getByRole('listitem').filter({ has: page.getByRole('heading') })).toHaveCount(3);
  await page.waitForLoadState('networkidle');
  expect(consoleErrors).toEqual([]);
});

test('/skills: 6 services, 12 technologies and 4 tools, every icon loaded; Russian on the page only', async ({ page, consoleErrors }) => {
  await page.goto('/skills');
  await expect(page.getByRole('heading', { level: 1, name: 'Skills' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Services' }).getByRole('listitem')).toHaveCount(6);
  await expect(page.getByRole('region', { name: 'Technologies' }).getByRole('listitem')).toHaveCount(12);
  await expect(page.getByRole('region', { name: 'Tools', exact: true }).getByRole('listitem')).toHaveCount(4);
  await page.waitForLoadState('networkidle');
  const broken = await page.locator('img.profile-icon').evaluateAll((imgs) =>
    (imgs as HTMLImageElement[]).filter((i) => !i.complete || i.naturalWidth === 0 || i.src.endsWith('/generic.svg')).map((i) => i.src),
  );
  expect(broken).toEqual([]);

  await expectNoRawKeys(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ru');
  await expect(page.getByRole('heading', { level: 1, name: 'Навыки' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Бэкенд-сервисы' })).toBeVisible();
  await expectNoRawKeys(page);
  // the site's own language is untouched
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('/tools: five groups, the philosophy, and all six languages', async ({ page, consoleErrors }) => {
  await page.goto('/tools');
  await expect(page.getByRole('heading', { level: 1, name: 'Development Tools' })).toBeVisible();
  for (const group of ['Development Environment', 'Design Tools', 'Testing and QA', 'Deployment and Infrastructure', 'Monitoring and Analytics']) {
    await expect(page.getByRole('heading', { level: 2, name: group })).toBeVisible();
  }
  await expect(page.getByText(/A tool earns its place/)).toBeVisible();
  const titles: Record<string, [string, RegExp]> = {
    ru: ['Инструменты разработки', /Инструмент заслуживает места/],
    uk: ['Інструменти розробки', /Інструмент заслуговує на місце/],
    es: ['Herramientas de desarrollo', /Una herramienta se gana su lugar/],
    fr: ['Outils de développement', /Un outil mérite sa place/],
    pt: ['Ferramentas de desenvolvimento', /Uma ferramenta conquista o seu lugar/],
  };
  for (const [lang, [title, philosophy]] of Object.entries(titles)) {
    await page.getByRole('combobox').selectOption(lang);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText(philosophy)).toBeVisible();
    await expectNoRawKeys(page);
  }
  expect(consoleErrors).toEqual([]);
});

test('GET /api/profile revalidates with its ETag, and an unknown icon has the generic fallback', async ({ request }) => {
  const first = await request.get('/api/profile');
  expect(first.status()).toBe(200);
  const etag = first.headers()['etag'];
  const again = await request.get('/api/profile', { headers: { 'If-None-Match': etag } });
  expect(again.status()).toBe(304);
  const generic = await request.get('/icons/generic.svg');
  expect(generic.status()).toBe(200);
  expect(generic.headers()['content-type']).toContain('image/svg+xml');
});

test('a broken content file stops serve with the file, the line and the field', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'devhub-content-'));
  const shipped = readFileSync(join(repoDir, 'content', 'profile.yaml'), 'utf8');
  writeFileSync(join(dir, 'profile.yaml'), shipped + 'colour: red\n');
  copyFileSync(join(repoDir, 'content', 'avatar.svg'), join(dir, 'avatar.svg'));
  const line = shipped.split('\n').length;
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = execFile(
      devhubBin,
      ['serve', '--addr', '127.0.0.1:0'],
      { env: { ...process.env, DEVHUB_STORAGE_DATA_DIR: join(dir, 'data'), DEVHUB_STORAGE_CONTENT_DIR: dir }, timeout: 20_000 },
      (err, _out, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
    );
    child.stdin?.end();
  });
  expect(code).toBe(1);
  expect(stderr).toContain(`${join(dir, 'profile.yaml')}:${line}: colour: unknown key`);
});

test('/, /skills and /tools open in the header language, else the nearest they have, and follow the header', async ({ page }) => {
  /** Picks a language in the header's menu (its button is named in the language shown). */
  const header = async (name: 'Українська' | 'Русский' | 'English') => {
    await page.getByRole('banner').getByRole('button', { name: /Choose language|Оберіть мову|Выберите язык/ }).click();
    await page.getByRole('menuitemradio', { name }).click();
  };
  const h1 = page.getByRole('heading', { level: 1 });
  await page.goto('/');
  await expect(h1).toHaveText('Welcome to DevHub');
  await header('Українська');
  await expect(h1).toHaveText('Ласкаво просимо до DevHub');
  await expect(page.getByRole('main').getByRole('combobox')).toHaveValue('uk');

  /** Goes to a page of the Tools menu without a reload (a reload would set English again: beforeEach). */
  const viaTools = async (path: '/skills' | '/tools') => {
    await page.getByRole('banner').getByRole('button', { name: /^(Tools|Інструменти|Инструменты)$/ }).click();
    await page.getByRole('menu').locator(`a[href="${path}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  };

  // /skills has English and Russian: under the Ukrainian header it opens in Russian.
  await viaTools('/skills');
  await expect(h1).toHaveText('Навыки');
  await expect(page.getByRole('heading', { name: 'Бэкенд-сервисы' })).toBeVisible();
  await header('English');
  await expect(h1).toHaveText('Skills');
  await expect(page.getByRole('heading', { name: 'Backend services' })).toBeVisible();

  // A pick on the page holds until the header changes again.
  await viaTools('/tools');
  await expect(h1).toHaveText('Development Tools');
  await page.getByRole('main').getByRole('combobox').selectOption('fr');
  await expect(h1).toHaveText('Outils de développement');
  await header('Русский');
  await expect(h1).toHaveText('Инструменты разработки');
  await header('Українська');
  await expect(h1).toHaveText('Інструменти розробки');
  await expect(page.getByRole('main').locator('[lang="uk"]').first()).toBeVisible();
});

// The site's name comes from the portfolio: renamed in the editor, the header, the page's title
// and the server's heads say the new name at once. The shared instance gets its profile back.
test('renaming the site in the portfolio editor changes the header, the title and the heads', async ({ page, request }) => {
  const { token } = await signInNewAccount(page, { prefix: 'brand', name: 'Brand Admin', admin: true });
  const original = await (await request.get('/api/profile')).json();
  // The instance's content/ is shared by every spec: the file goes back byte for byte too.
  const file = join(devhubEnv.DEVHUB_STORAGE_CONTENT_DIR, 'profile.yaml');
  const originalFile = readFileSync(file);
  const name = `Hub ${uid().slice(-6)}`;
  try {
    await page.goto('/profile/portfolio');
    const brand = page.getByRole('banner').locator('a.brand');
    await expect(brand).toContainText('DevHub');
    await page.getByLabel('Site name (en)').fill(name);
    await page.getByLabel('Subtitle (en)').fill('Notes and tools');
    await page.getByRole('button', { name: 'Save the portfolio' }).click();
    await expect(page.getByText('Saved: the pages show it now.')).toBeVisible();
    await expect(brand).toContainText(name);
    await expect(brand).toContainText('Notes and tools');
    await expect(page).toHaveTitle(`Edit the portfolio · ${name}`);
    const skills = await (await request.get('/skills')).text();
    expect(skills).toContain(`<title>Skills — ${name}</title>`);
    expect(skills).toContain(`<meta property="og:site_name" content="${name}" />`);
    expect(await (await request.get('/feed.xml')).text()).toContain(`<title>${name} blog</title>`);
  } finally {
    const res = await request.put('/api/profile', { data: original, headers: { Authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    writeFileSync(file, originalFile);
    rmSync(`${file}.prev`, { force: true });
  }
  await page.goto('/skills');
  await expect(page.getByRole('banner').locator('a.brand')).toContainText('DevHub');
  await expect(page).toHaveTitle(/· DevHub$/);
});

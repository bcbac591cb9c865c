import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Select, TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useProfile, type LocalText, type Profile } from '../profile/useProfile';
import { useSavePortfolio } from './api';
import { IconPicker } from './IconPicker';
import { EDITOR_NS } from './i18n';
import './editor.css';

/** The languages a portfolio text may have (content/profile.yaml); English is required. */
const LANGS = ['en', 'uk', 'ru', 'es', 'fr', 'pt'] as const;
type Lang = (typeof LANGS)[number];

type Item = Profile['services'][number];

/**
 * /profile/portfolio: an admin edits the portfolio the home page, /skills and /tools show — its
 * texts one language at a time, its links, projects, services, technologies, tools and tool
 * groups, each icon picked from the bundled set. Saving checks it on the server as `devhub
 * content check` does and writes content/profile.yaml; the pages show it at once.
 */
export default function PortfolioEditorPage() {
  const { t } = useTranslation(EDITOR_NS);
  const { isAdmin, loading } = useAuth();
  const profile = useProfile();
  let body: ReactNode;
  if (loading || profile.isPending) body = <p role="status">{t('loading')}</p>;
  else if (!isAdmin) body = <p role="alert">{t('adminsOnly')}</p>;
  else if (!profile.data) body = <p role="alert">{t('noProfile')}</p>;
  else body = <Editor initial={profile.data} />;
  return (
    <Page title={t('title')} lead={t('lead')} className="pe">
      <p>
        <Link to="/profile?section=admin">{t('back')}</Link>
      </p>
      {body}
    </Page>
  );
}

function Editor({ initial }: { initial: Profile }) {
  const { t } = useTranslation(EDITOR_NS);
  const [draft, setDraft] = useState<Profile>(() => structuredClone(initial));
  const [lang, setLang] = useState<Lang>('en');
  const save = useSavePortfolio();
  useEffect(() => save.reset, [save.reset]);

  const edit = (fn: (p: Profile) => void) => {
    setDraft((prev) => {
      const next = structuredClone(prev);
      fn(next);
      return next;
    });
    if (save.isSuccess || save.isError) save.reset();
  };
  const text = (label: string, get: (p: Profile) => LocalText | null | undefined, set: (p: Profile, v: LocalText) => void, multiline = false) => (
    <LocalTextField label={label} lang={lang} value={get(draft)} multiline={multiline}
      onChange={(v) => edit((p) => set(p, v))} />
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(draft);
  };

  return (
    <form className="pe-form" onSubmit={onSubmit} aria-label={t('title')} noValidate>
      <div className="pe-lang">
        <label htmlFor="pe-lang">{t('language')}</label>
        <Select id="pe-lang" value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
          {LANGS.map((l) => (
            <option key={l} value={l}>{t(`langs.${l}`)}</option>
          ))}
        </Select>
      </div>

      <fieldset className="pe-section">
        <legend>{t('sections.site')}</legend>
        <p className="pe-hint">{t('siteHint')}</p>
        {text(t('fields.siteName'), (p) => p.site?.name as LocalText | undefined, (p, v) => (p.site = { ...p.site, name: v }))}
        {text(t('fields.siteSubtitle'), (p) => p.site?.subtitle as LocalText | undefined, (p, v) => (p.site = { ...p.site, subtitle: v }))}
      </fieldset>

      <fieldset className="pe-section">
        <legend>{t('sections.about')}</legend>
        {text(t('fields.name'), (p) => p.name, (p, v) => (p.name = v))}
        {text(t('fields.headline'), (p) => p.headline, (p, v) => (p.headline = v))}
        {text(t('fields.bio'), (p) => p.bio, (p, v) => (p.bio = v), true)}
        {text(t('fields.location'), (p) => p.location, (p, v) => (p.location = v))}
        <label className="pe-field">
          <span>{t('fields.avatar')}</span>
          <TextField value={draft.avatar} onChange={(e) => edit((p) => void (p.avatar = e.target.value))} />
        </label>
      </fieldset>

      <ListSection title={t('sections.links')} items={draft.links} addLabel={t('add.link')}
        onAdd={() => edit((p) => p.links.push({ label: '', url: 'https://', icon: '' }))}
        onRemove={(i) => edit((p) => p.links.splice(i, 1))}
        render={(l, i) => (
          <>
            <label className="pe-field"><span>{t('fields.label')}</span>
              <TextField value={l.label} onChange={(e) => edit((p) => void (p.links[i].label = e.target.value))} /></label>
            <label className="pe-field"><span>{t('fields.url')}</span>
              <TextField type="url" value={l.url} onChange={(e) => edit((p) => void (p.links[i].url = e.target.value))} /></label>
            <IconPicker label={t('fields.icon')} value={l.icon} onChange={(v) => edit((p) => void (p.links[i].icon = v))} />
          </>
        )} />

      <ListSection title={t('sections.projects')} items={draft.projects} addLabel={t('add.project')}
        onAdd={() => edit((p) => p.projects.push({ name: '', description: { en: '' }, link: 'https://', tags: [] }))}
        onRemove={(i) => edit((p) => p.projects.splice(i, 1))}
        render={(pr, i) => (
          <>
            <label className="pe-field"><span>{t('fields.projectName')}</span>
              <TextField value={pr.name} onChange={(e) => edit((p) => void (p.projects[i].name = e.target.value))} /></label>
            {text(t('fields.description'), (p) => p.projects[i].description, (p, v) => (p.projects[i].description = v), true)}
            <label className="pe-field"><span>{t('fields.url')}</span>
              <TextField type="url" value={pr.link} onChange={(e) => edit((p) => void (p.projects[i].link = e.target.value))} /></label>
            <label className="pe-field"><span>{t('fields.tags')}</span>
              <TextField value={(pr.tags ?? []).join(', ')}
                onChange={(e) => edit((p) => void (p.projects[i].tags = e.target.value.split(',').map((s) => s.trim()).filter(Boolean)))} /></label>
          </>
        )} />

      {(['services', 'technologies', 'tools'] as const).map((key) => (
        <ItemList key={key} title={t(`sections.${key}`)} lang={lang} items={draft[key]} withDescription={key === 'services'}
          addLabel={t('add.item')} onChange={(items) => edit((p) => void (p[key] = items))} />
      ))}

      <fieldset className="pe-section">
        <legend>{t('sections.devtools')}</legend>
        {text(t('fields.intro'), (p) => p.devtools.intro, (p, v) => (p.devtools.intro = v), true)}
        {text(t('fields.philosophy'), (p) => p.devtools.philosophy, (p, v) => (p.devtools.philosophy = v), true)}
        <ListSection title={t('sections.groups')} items={draft.devtools.groups} addLabel={t('add.group')}
          onAdd={() => edit((p) => p.devtools.groups.push({ title: { en: '' }, tools: [] }))}
          onRemove={(i) => edit((p) => p.devtools.groups.splice(i, 1))}
          render={(g, i) => (
            <>
              {text(t('fields.groupTitle'), (p) => p.devtools.groups[i].title, (p, v) => (p.devtools.groups[i].title = v))}
              <ItemList title={t('sections.groupTools')} lang={lang} items={g.tools} withDescription={false} addLabel={t('add.item')}
                onChange={(items) => edit((p) => void (p.devtools.groups[i].tools = items))} />
            </>
          )} />
      </fieldset>

      <div className="pe-actions">
        {save.isError ? <p className="auth-form__error" role="alert">{saveError(save.error, t)}</p> : null}
        {save.isSuccess ? <p className="auth-form__success" role="status">{t('saved')}</p> : null}
        <button type="submit" className="btn btn--primary" disabled={save.isPending}>
          {save.isPending ? t('saving') : t('save')}
        </button>
      </div>
    </form>
  );
}

/** The refusal as the form shows it: the field's dotted path and what is wrong with it. */
function saveError(err: unknown, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (err instanceof ApiError && err.data) {
    for (const [field, v] of Object.entries(err.data)) {
      const msg = (v as { message?: string } | null)?.message;
      if (msg) return t('invalid', { field, message: msg });
    }
  }
  return err instanceof ApiError && err.status < 500 ? err.message : t('failed');
}

function LocalTextField({ label, lang, value, multiline, onChange }: {
  label: string; lang: Lang; value: LocalText | null | undefined; multiline: boolean; onChange: (v: LocalText) => void;
}) {
  const current = value?.[lang] ?? '';
  const set = (s: string) => {
    const next: Record<string, string> = { ...(value ?? {}) };
    if (s) next[lang] = s;
    else delete next[lang];
    onChange(next as LocalText);
  };
  return (
    <label className="pe-field">
      <span>{label} <span className="pe-field__lang">({lang})</span></span>
      {multiline ? (
        <textarea className="field-input pe-textarea" value={current} onChange={(e) => set(e.target.value)} rows={3} />
      ) : (
        <TextField value={current} onChange={(e) => set(e.target.value)} />
      )}
    </label>
  );
}

function ListSection<T>({ title, items, render, onAdd, onRemove, addLabel }: {
  title: string; items: T[]; render: (item: T, i: number) => ReactNode; onAdd: () => void; onRemove: (i: number) => void; addLabel: string;
}) {
  const { t } = useTranslation(EDITOR_NS);
  return (
    <fieldset className="pe-section">
      <legend>{title}</legend>
      <ol className="pe-list">
        {items.map((item, i) => (
          <li key={i} className="pe-list__item">
            {render(item, i)}
            <button type="button" className="btn pe-remove" onClick={() => onRemove(i)}
              aria-label={t('remove', { what: title, n: i + 1 })}>
              {t('removeShort')}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="btn" onClick={onAdd}>{addLabel}</button>
    </fieldset>
  );
}

function ItemList({ title, lang, items, withDescription, addLabel, onChange }: {
  title: string; lang: Lang; items: Item[]; withDescription: boolean; addLabel: string; onChange: (items: Item[]) => void;
}) {
  const { t } = useTranslation(EDITOR_NS);
  const set = (i: number, fn: (it: Item) => void) => {
    const next = structuredClone(items);
    fn(next[i]);
    onChange(next);
  };
  return (
    <ListSection title={title} items={items} addLabel={addLabel}
      onAdd={() => onChange([...items, withDescription ? { name: { en: '' }, description: { en: '' }, icon: '' } : { name: { en: '' }, icon: '' }])}
      onRemove={(i) => onChange(items.filter((_, j) => j !== i))}
      render={(it, i) => (
        <>
          <LocalTextField label={t('fields.itemName')} lang={lang} value={it.name} multiline={false}
            onChange={(v) => set(i, (x) => void (x.name = v))} />
          {withDescription ? (
            <LocalTextField label={t('fields.description')} lang={lang} value={it.description} multiline
              onChange={(v) => set(i, (x) => void (x.description = v))} />
          ) : null}
          <IconPicker label={t('fields.icon')} value={it.icon} onChange={(v) => set(i, (x) => void (x.icon = v))} />
        </>
      )} />
  );
}

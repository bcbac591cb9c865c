import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import { SYSTEMS, useCreateDownload, useUpdateDownload, type DownloadEntry, type EntryInput, type Section } from '../api';
import { DOWNLOADS_NS } from '../i18n';

const LANGS = ['uk', 'ru', 'en'] as const;

/** Creates an entry in a section, or edits one (admins). */
export function EntryForm({ section, entry, onClose, onSaved }: {
  section: Section;
  entry?: DownloadEntry;
  onClose: () => void;
  onSaved: (e: DownloadEntry) => void;
}) {
  const { t } = useTranslation(DOWNLOADS_NS);
  const toast = useToast();
  const create = useCreateDownload();
  const update = useUpdateDownload(entry?.slug ?? '');
  const [v, setV] = useState<EntryInput>(() => ({
    slug: entry?.slug ?? '',
    name: entry?.name ?? '',
    summary: entry?.summary ?? '',
    description: entry?.description ?? '',
    systems: entry?.systems ?? [],
    requirements: entry?.requirements ?? '',
    licence: entry?.licence ?? '',
    homepage: entry?.homepage ?? '',
    hidden: entry?.hidden ?? false,
    translations: entry?.translations ?? {},
  }));
  const set = (patch: Partial<EntryInput>) => setV((old) => ({ ...old, ...patch }));
  const setTr = (lang: string, patch: { summary?: string; description?: string }) =>
    setV((old) => ({ ...old, translations: { ...old.translations, [lang]: { ...old.translations?.[lang], ...patch } } }));
  const busy = create.isPending || update.isPending;

  async function submit(e: FormEvent) {
    e.preventDefault();
    try {
      const out = entry ? await update.mutateAsync({ ...v, slug: undefined }) : await create.mutateAsync({ ...v, section });
      toast.success(entry ? t('admin.saved') : t('admin.created'));
      onSaved(out);
    } catch (err) {
      toast.error(t('admin.failed', { message: errorMessage(err) }));
    }
  }

  return (
    <Modal title={entry ? t('admin.edit') : t('admin.new')} onClose={onClose} closeLabel={t('admin.cancel')} closeOnBackdrop={false} className="dl-form-modal">
      <form className="dl-form" onSubmit={(e) => void submit(e)}>
        <div className="modal__body dl-form__fields">
          {!entry ? (
            <label>
              {t('admin.slug')}
              <TextField required pattern="[a-z0-9]+(-[a-z0-9]+)*" value={v.slug} onChange={(e) => set({ slug: e.target.value })} />
            </label>
          ) : null}
          <label>
            {t('admin.name')}
            <TextField required value={v.name} onChange={(e) => set({ name: e.target.value })} />
          </label>
          <label>
            {t('admin.summary')}
            <TextField value={v.summary} onChange={(e) => set({ summary: e.target.value })} />
          </label>
          <label>
            {t('admin.description')}
            <textarea className="field" rows={5} value={v.description} onChange={(e) => set({ description: e.target.value })} />
          </label>
          <fieldset className="dl-form__systems">
            <legend>{t('admin.systems')}</legend>
            {SYSTEMS.map((s) => (
              <label key={s} className="dl-check">
                <input
                  type="checkbox"
                  checked={v.systems?.includes(s) ?? false}
                  onChange={(e) => set({ systems: e.target.checked ? [...(v.systems ?? []), s] : (v.systems ?? []).filter((x) => x !== s) })}
                />
                {t(`systems.${s}`)}
              </label>
            ))}
          </fieldset>
          <label>
            {t('admin.requirements')}
            <textarea className="field" rows={2} value={v.requirements} onChange={(e) => set({ requirements: e.target.value })} />
          </label>
          <label>
            {t('admin.licence')}
            <TextField value={v.licence} onChange={(e) => set({ licence: e.target.value })} />
          </label>
          <label>
            {t('admin.homepage')}
            <TextField type="url" value={v.homepage} onChange={(e) => set({ homepage: e.target.value })} />
          </label>
          <label className="dl-check">
            <input type="checkbox" checked={v.hidden ?? false} onChange={(e) => set({ hidden: e.target.checked })} />
            {t('admin.hidden')}
          </label>
          <details>
            <summary>{t('admin.translations')}</summary>
            {LANGS.map((lang) => (
              <div key={lang} className="dl-form__tr">
                <label>
                  {t('admin.translationSummary', { lang })}
                  <TextField value={v.translations?.[lang]?.summary ?? ''} onChange={(e) => setTr(lang, { summary: e.target.value })} />
                </label>
                <label>
                  {t('admin.translationDescription', { lang })}
                  <textarea className="field" rows={3} value={v.translations?.[lang]?.description ?? ''} onChange={(e) => setTr(lang, { description: e.target.value })} />
                </label>
              </div>
            ))}
          </details>
        </div>
        <div className="modal__actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('admin.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {entry ? t('admin.save') : t('admin.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/Field';
import { searchIcons, useIconNames } from './api';
import { EDITOR_NS } from './i18n';

/** An icon name typed with suggestions from the bundled set, and a preview of the chosen icon. */
export function IconPicker({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  const { t } = useTranslation(EDITOR_NS);
  const id = useId();
  const names = useIconNames();
  const matches = useMemo(() => searchIcons(names.data ?? [], value), [names.data, value]);
  const known = !names.data || names.data.includes(value);
  return (
    <div className="pe-icon">
      <img className="pe-icon__preview" src={`/icons/${known && value ? value : 'generic'}.svg`} alt="" width={24} height={24} />
      <TextField
        aria-label={label}
        list={`${id}-list`}
        value={value}
        onChange={(e) => onChange(e.target.value.trim().toLowerCase())}
        aria-invalid={!known}
        placeholder={t('iconSearch')}
      />
      <datalist id={`${id}-list`}>
        {matches.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      {!known ? <span className="pe-icon__unknown">{t('iconUnknown')}</span> : null}
    </div>
  );
}

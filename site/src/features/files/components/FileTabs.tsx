import { useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GROUPS, type FileGroups, type FileItem, type Group } from '../api';
import { FILES_NS } from '../i18n';
import type { DownloadState } from '../useDownloads';
import { FileRow } from './FileRow';

interface Props {
  groups: FileGroups;
  active: Group;
  onActivate: (g: Group) => void;
  isAdmin: boolean;
  downloads: Record<number, DownloadState>;
  onPreview: (f: FileItem) => void;
  onDownload: (f: FileItem) => void;
  onDelete: (f: FileItem) => void;
  /** The ids chosen for "download selected", and how a row's checkbox changes them. */
  selected?: ReadonlySet<number>;
  onSelect?: (f: FileItem, on: boolean) => void;
}

/** Tabs images/videos/audio/documents/other; an empty tab says 'No files found'. */
export function FileTabs({ groups, active, onActivate, isAdmin, downloads, onPreview, onDownload, onDelete, selected, onSelect }: Props) {
  const { t } = useTranslation(FILES_NS);
  const base = useId();
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});

  const onKey = (e: KeyboardEvent) => {
    const i = GROUPS.indexOf(active);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % GROUPS.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + GROUPS.length) % GROUPS.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = GROUPS.length - 1;
    if (next < 0) return;
    e.preventDefault();
    onActivate(GROUPS[next]);
    tabs.current[GROUPS[next]]?.focus();
  };

  const files = groups[active];
  return (
    <div className="files-tabs">
      <div role="tablist" aria-label={t('tabs.label')} className="files-tabs__list" onKeyDown={onKey}>
        {GROUPS.map((g) => (
          <button
            key={g}
            ref={(el) => {
              tabs.current[g] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${g}`}
            aria-selected={g === active}
            aria-controls={`${base}-panel`}
            tabIndex={g === active ? 0 : -1}
            className="files-tabs__tab"
            onClick={() => onActivate(g)}
          >
            {t(`tabs.${g}`)} <span className="files-tabs__count">{groups[g].length}</span>
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${active}`} className="files-tabs__panel">
        {files.length === 0 ? (
          <p className="files-empty">{t('list.empty')}</p>
        ) : (
          <ul className="files-list">
            {files.map((f) => (
              <FileRow
                key={f.id}
                file={f}
                isAdmin={isAdmin}
                download={downloads[f.id]}
                onPreview={onPreview}
                onDownload={onDownload}
                onDelete={onDelete}
                selected={selected?.has(f.id)}
                onSelect={onSelect}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

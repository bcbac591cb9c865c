import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadRelease } from '../api';
import { DOWNLOADS_NS } from '../i18n';
import { detectSystem, pickFile, type VisitorSystem } from '../system';

/** How a visitor's system is named on the button ("Windows 11", "macOS"). */
function systemName(sys: VisitorSystem, fallback: string): string {
  switch (sys.os) {
    case 'windows':
      return sys.version ? `Windows ${sys.version}` : 'Windows';
    case 'macos':
      return 'macOS';
    case 'linux':
      return 'Linux';
    case 'android':
      return 'Android';
    case 'ios':
      return 'iOS';
  }
  return fallback;
}

/** The primary download: the latest release's file for the visitor's system, e.g. "Download for Windows 11 (x64)". */
export function DownloadButton({ release }: { release: DownloadRelease }) {
  const { t } = useTranslation(DOWNLOADS_NS);
  const [sys, setSys] = useState<VisitorSystem | null>(null);
  useEffect(() => {
    let live = true;
    void detectSystem().then((s) => live && setSys(s));
    return () => {
      live = false;
    };
  }, []);
  if (!sys) return null;
  const file = pickFile(release.files, sys);
  const name = systemName(sys, t('fileSystems.any'));
  if (!file) return <p className="dl-primary__none">{t('detail.noMatchFile', { system: name })}</p>;
  const arch = file.arch === 'any' ? (sys.arch ?? t('archs.any')) : t(`archs.${file.arch}`);
  const label = file.system === 'any' ? t('detail.download') : t('detail.downloadFor', { system: name, arch });
  return (
    <p className="dl-primary">
      <a className="btn btn--primary dl-primary__button" href={file.url} download={file.name}>
        {label}
      </a>
      <span className="dl-primary__file">{file.name}</span>
    </p>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fileKeys, filePaths, previewFile, type FileDetail } from '../api';
import { inlineKind } from './api';
import { FilePreview } from './FilePreview';
import { SHARES_NS } from './i18n';
import './shares.css';

/**
 * The file page's inline preview. A public file plays straight from its stream URL (video seeks
 * with Range); a private one needs the account's token, which an <img> or <video> cannot send,
 * so its bytes are fetched and shown from an object URL.
 */
export function DetailPreview({ file }: { file: FileDetail }) {
  const { t } = useTranslation(SHARES_NS);
  const previewable = inlineKind(file.mimetype) !== null;
  const isPrivate = file.visibility === 'private';
  const blob = useQuery({
    queryKey: fileKeys.preview(file.id, file.sha256),
    queryFn: ({ signal }) => previewFile(file.id, signal),
    enabled: previewable && isPrivate,
    staleTime: Infinity,
    retry: false,
  });
  const objectUrl = useMemo(() => (blob.data ? URL.createObjectURL(blob.data) : null), [blob.data]);
  useEffect(() => () => {
    if (objectUrl) URL.revokeObjectURL(objectUrl);
  }, [objectUrl]);
  if (blob.isError) return <p role="alert">{t('preview.failed')}</p>;
  const src = isPrivate ? objectUrl : filePaths.stream(file.id);
  return <FilePreview src={src} mimetype={file.mimetype} name={file.originalName} />;
}

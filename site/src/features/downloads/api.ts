// The download sections' API calls (/api/downloads), one per function, with the query keys of
// the feature in downloadKeys. Types come from the contract (DownloadEntry, DownloadSummary…).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api';
import type { Schema } from '../../lib/apiTypes';

export type Section = 'programs' | 'alavar';
export const SECTIONS: readonly Section[] = ['programs', 'alavar'];

/** The section a path is in (/alavar… or else /programs…). */
export function sectionOf(pathname: string): Section {
  return pathname.split('/')[1] === 'alavar' ? 'alavar' : 'programs';
}
export type DownloadSummary = Schema<'DownloadSummary'>;
export type DownloadEntry = Schema<'DownloadEntry'>;
export type DownloadRelease = Schema<'DownloadRelease'>;
export type DownloadFile = Schema<'DownloadFile'>;
export type DownloadSystem = Schema<'DownloadSystem'>;
export type FileSystem = DownloadFile['system'];
export type Arch = DownloadFile['arch'];
export type SortKey = 'name' | 'newest' | 'popular';

export const SYSTEMS: readonly DownloadSystem[] = ['windows-7', 'windows-10', 'windows-11', 'windows-xp', 'macos', 'linux', 'android', 'dos'];
export const FILE_SYSTEMS: readonly FileSystem[] = ['windows', 'macos', 'linux', 'android', 'dos', 'any'];
export const ARCHS: readonly Arch[] = ['x64', 'x86', 'arm64', 'any'];
export const PAGE_SIZE = 20;

export interface ListParams {
  section: Section;
  search: string;
  system: string;
  sort: SortKey;
  page: number;
}

export interface DownloadList {
  entries: DownloadSummary[];
  totalCount: number;
}

/** The feature's query keys. */
export const downloadKeys = {
  all: ['downloads'] as const,
  lists: () => [...downloadKeys.all, 'list'] as const,
  list: (p: ListParams) => [...downloadKeys.lists(), p] as const,
  detail: (slug: string) => [...downloadKeys.all, 'detail', slug] as const,
};

/** GET /api/downloads. */
export function listDownloads(p: ListParams, signal?: AbortSignal): Promise<DownloadList> {
  return api.get<DownloadList>('/api/downloads', {
    signal,
    query: { section: p.section, search: p.search || undefined, system: p.system || undefined, sort: p.sort, page: p.page, limit: PAGE_SIZE },
  });
}

/** The list a section's page shows first: all its entries by name, the first page. */
export const firstListParams = (section: Section): ListParams => ({ section, search: '', system: '', sort: 'name', page: 1 });

/** One page of a section's list (the route asks for the first one at start-up with these options). */
export const downloadListQuery = (p: ListParams) =>
  queryOptions({ queryKey: downloadKeys.list(p), queryFn: ({ signal }) => listDownloads(p, signal) });

export function useDownloadList(p: ListParams) {
  return useQuery({ ...downloadListQuery(p), placeholderData: (prev) => prev });
}

/** GET /api/downloads/{slug}. */
export function getDownload(slug: string, signal?: AbortSignal): Promise<DownloadEntry> {
  return api.get<DownloadEntry>(`/api/downloads/${encodeURIComponent(slug)}`, { signal });
}

export function useDownload(slug: string) {
  return useQuery({ queryKey: downloadKeys.detail(slug), queryFn: ({ signal }) => getDownload(slug, signal) });
}

/** What an admin writes of an entry (POST and PATCH /api/downloads). */
export interface EntryInput {
  section?: Section;
  slug?: string;
  name?: string;
  summary?: string;
  description?: string;
  systems?: string[];
  requirements?: string;
  licence?: string;
  homepage?: string;
  hidden?: boolean;
  order?: number;
  translations?: Record<string, { summary?: string; description?: string }>;
}

function useInvalidate() {
  const qc = useQueryClient();
  return (entry?: DownloadEntry) => {
    if (entry) qc.setQueryData(downloadKeys.detail(entry.slug), entry);
    return qc.invalidateQueries({ queryKey: downloadKeys.all });
  };
}

export function useCreateDownload() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (input: EntryInput) => api.post<DownloadEntry>('/api/downloads', input),
    onSuccess: (e) => done(e),
  });
}

export function useUpdateDownload(slug: string) {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (input: EntryInput) => request<DownloadEntry>(`/api/downloads/${encodeURIComponent(slug)}`, { method: 'PATCH', body: input }),
    onSuccess: (e) => done(e),
  });
}

export function useDeleteDownload() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) => api.delete<void>(`/api/downloads/${encodeURIComponent(slug)}`),
    onSuccess: (_v, slug) => {
      qc.removeQueries({ queryKey: downloadKeys.detail(slug) });
      return qc.invalidateQueries({ queryKey: downloadKeys.lists() });
    },
  });
}

export function useReorderDownloads() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: { section: Section; slugs: string[] }) => request<void>('/api/downloads/order', { method: 'PUT', body }),
    onSuccess: () => done(),
  });
}

/** One file of a new release: sent in the body, or already uploaded resumably (fileId). */
export type ReleaseFile = { system: FileSystem; arch: Arch } & ({ file: File } | { fileId: number });

/** The multipart body of POST /api/downloads/{slug}/releases, in the order the server reads. */
export function releaseForm(version: string, notes: string, files: ReleaseFile[]): FormData {
  const form = new FormData();
  form.append('version', version);
  form.append('notes', notes);
  for (const f of files) {
    if ('file' in f) form.append('files', f.file, f.file.name);
    else form.append('fileId', String(f.fileId));
    form.append('system', f.system);
    form.append('arch', f.arch);
  }
  return form;
}

export function useAddRelease(slug: string) {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (form: FormData) => api.post<DownloadEntry>(`/api/downloads/${encodeURIComponent(slug)}/releases`, form),
    onSuccess: (e) => done(e),
  });
}

export function useDeleteRelease(slug: string) {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (version: string) =>
      api.delete<DownloadEntry>(`/api/downloads/${encodeURIComponent(slug)}/releases/${encodeURIComponent(version)}`),
    onSuccess: (e) => done(e),
  });
}

export function useAddImages(slug: string) {
  const done = useInvalidate();
  return useMutation({
    mutationFn: ({ kind, files }: { kind: 'icon' | 'screenshot'; files: File[] }) => {
      const form = new FormData();
      form.append('kind', kind);
      for (const f of files) form.append('files', f, f.name);
      return api.post<DownloadEntry>(`/api/downloads/${encodeURIComponent(slug)}/images`, form);
    },
    onSuccess: (e) => done(e),
  });
}

export function useDeleteImage(slug: string) {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete<DownloadEntry>(`/api/downloads/${encodeURIComponent(slug)}/images/${encodeURIComponent(id)}`),
    onSuccess: (e) => done(e),
  });
}

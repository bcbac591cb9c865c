import { formatDateTime } from '../../lib/dateTimeFormat';

/** A post's time in the reader's language: a date and a time of day. */
export function formatWhen(iso: string, lang: string): string {
  return formatDateTime(iso, lang);
}

/** How long an author may edit their own post after writing it. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;

/** Whether the author may still edit an item written at createdAt. */
export function withinEditWindow(createdAt: string, now = Date.now()): boolean {
  return now - new Date(createdAt).getTime() < EDIT_WINDOW_MS;
}

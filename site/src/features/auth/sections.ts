// The profile page's views, chosen with ?section=.
export const SECTIONS = ['overview', 'messages', 'friends', 'notifications', 'chat', 'admin', 'settings'] as const;
export type Section = (typeof SECTIONS)[number];

export function parseSection(value: string | null): Section {
  return SECTIONS.includes(value as Section) ? (value as Section) : 'overview';
}

/** The link target of a section (the overview is the bare page; the chat is its own page). */
export function sectionHref(s: Section): string {
  if (s === 'chat') return '/chat';
  return s === 'overview' ? '/profile' : `/profile?section=${s}`;
}

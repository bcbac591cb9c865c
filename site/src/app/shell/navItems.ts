// The shell's links: one list, used by the header (desktop) and the sidebar (≤ 1024 px).

export interface NavItem {
  to: string;
  /** Translation key of the label. */
  labelKey: string;
}

export const TOOL_ITEMS: readonly NavItem[] = [
  { to: '/tools/camera', labelKey: 'toolsItems.camera' },
  { to: '/tools/microphone', labelKey: 'toolsItems.microphone' },
  { to: '/tools/ip', labelKey: 'toolsItems.ip' },
  { to: '/tools/tone_generator', labelKey: 'toolsItems.toneGenerator' },
];

/** Header links after the Tools dropdown. */
export const MAIN_ITEMS: readonly NavItem[] = [
  { to: '/chat', labelKey: 'chat' },
  { to: '/games', labelKey: 'games' },
  { to: '/blog', labelKey: 'blog' },
  { to: '/filecloud', labelKey: 'files' },
  { to: '/profile', labelKey: 'profile' },
];

/** The profile page reads ?section= to open one of its views. */
export const ADMIN_PATH = '/profile?section=admin';

/** Side-menu account items (spec §2): personal cabinet, messages, friends, chat, admin (admins only). */
export const SIDE_MENU_ITEMS: ReadonlyArray<NavItem & { adminOnly?: boolean }> = [
  { to: '/profile', labelKey: 'sideMenu.cabinet' },
  { to: '/profile?section=messages', labelKey: 'sideMenu.messages' },
  { to: '/profile?section=friends', labelKey: 'sideMenu.friends' },
  { to: '/chat', labelKey: 'sideMenu.chat' },
  { to: ADMIN_PATH, labelKey: 'sideMenu.admin', adminOnly: true },
];

/** The shell breakpoint (spec §9): at this width or less the links move into the sidebar. */
export const SHELL_BREAKPOINT_PX = 1024;

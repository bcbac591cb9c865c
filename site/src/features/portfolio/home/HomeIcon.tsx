// The cards' icons: inline SVG strokes (no icon font, nothing from another host).
import type { ReactNode } from 'react';
import type { HomeIconKey } from './homeRoutes';

const PATHS: Record<HomeIconKey | 'construction', ReactNode> = {
  skills: <path d="M8 6l-6 6 6 6M16 6l6 6-6 6M14 4l-4 16" />,
  filecloud: <path d="M7 19a5 5 0 1 1 .9-9.9A6 6 0 0 1 19.5 11 4 4 0 0 1 18 19zM12 16v-5M9.5 13.5 12 11l2.5 2.5" />,
  games: <path d="M7 7h10a5 5 0 0 1 0 10H7A5 5 0 0 1 7 7zM8 10v4M6 12h4M15 11h.01M18 13h.01" />,
  alavar: <path d="M6 3h12l4 6-10 12L2 9zM2 9h20M10 3 8 9l4 12 4-12-2-6" />,
  programs: <path d="M5 4h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zM3 9h18M6.5 6.5h.01M9.5 6.5h.01" />,
  forum: <path d="M17 8h2a2 2 0 0 1 2 2v10l-3-3h-7a2 2 0 0 1-2-2v-1M15 4a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v10l3-3h7a2 2 0 0 0 2-2z" />,
  blog: <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />,
  notFound: <path d="M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zM16 8l-2 6-6 2 2-6z" />,
  construction: <path d="M12 3 2 20h20zM12 10v4M12 17h.01" />,
};

export function HomeIcon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg
      className="home-icon"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      data-icon={name}
    >
      {PATHS[name]}
    </svg>
  );
}

import { useId } from 'react';
import type { Language } from '../../lib/languageDetection';

// Flags drawn inline: emoji flags do not render on every system, and nothing may come from a CDN.
export function Flag({ code, className }: { code: Language; className?: string }) {
  const clipId = `flag-clip-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const common = {
    className: ['flag', className].filter(Boolean).join(' '),
    width: 21,
    height: 14,
    'aria-hidden': true,
    focusable: false,
  } as const;
  switch (code) {
    case 'uk':
      return (
        <svg {...common} viewBox="0 0 3 2">
          <rect width="3" height="1" fill="#0057b7" />
          <rect y="1" width="3" height="1" fill="#ffd700" />
        </svg>
      );
    case 'ru':
      return (
        <svg {...common} viewBox="0 0 9 6">
          <rect width="9" height="2" fill="#fff" />
          <rect y="2" width="9" height="2" fill="#0039a6" />
          <rect y="4" width="9" height="2" fill="#d52b1e" />
        </svg>
      );
    default:
      return (
        <svg {...common} viewBox="0 0 60 30">
          <clipPath id={clipId}>
            <path d="M30,15 h30 v15 z v15 h-30 z h-30 v-15 z v-15 h30 z" />
          </clipPath>
          <path d="M0,0 v30 h60 v-30 z" fill="#012169" />
          <path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" strokeWidth="6" />
          <path d="M0,0 L60,30 M60,0 L0,30" clipPath={`url(#${clipId})`} stroke="#C8102E" strokeWidth="4" />
          <path d="M30,0 v30 M0,15 h60" stroke="#fff" strokeWidth="10" />
          <path d="M30,0 v30 M0,15 h60" stroke="#C8102E" strokeWidth="6" />
        </svg>
      );
  }
}

import type { ComponentProps } from 'react';

// The site's one text field and one select (.field-input in ui.css): as tall as its buttons, in
// its colours and corners, a select with the site's own arrow rather than the browser's.
// Every form control that takes text or a choice is one of these.

const join = (...names: (string | undefined)[]) => names.filter(Boolean).join(' ');

/** A text field (text, search, password, number…) in the site's style. */
export function TextField({ className, ...props }: ComponentProps<'input'>) {
  return <input {...props} className={join('field-input', className)} />;
}

/** A select in the site's style. */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select {...props} className={join('field-input field-input--select', className)} />;
}

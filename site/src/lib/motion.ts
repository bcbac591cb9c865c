/**
 * Whether the visitor asked for less motion (prefers-reduced-motion: reduce). CSS honours it in
 * app/styles.css; a script that moves the page itself — a smooth scroll — asks here, because an
 * explicit `behavior: 'smooth'` wins over the stylesheet's scroll-behavior.
 */
export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The scroll behaviour to hand to scrollIntoView / scrollTo: smooth unless less motion is wanted. */
export function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? 'auto' : 'smooth';
}

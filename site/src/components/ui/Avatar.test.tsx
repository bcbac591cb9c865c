import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar } from './Avatar';

describe('Avatar', () => {
  it('shows the picture at its size, lazily, as decoration', () => {
    const { container } = render(<Avatar name="Ann" url="/api/users/3/avatar?v=ab" size={28} />);
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/api/users/3/avatar?v=ab');
    expect(img.getAttribute('width')).toBe('28');
    expect(img.getAttribute('height')).toBe('28');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('alt')).toBe('');
  });

  it.each([
    ['ann', 'A'],
    ['  олена ', 'О'],
    ['', '?'],
  ])('without a picture shows the initial of %j in a circle of the same size', (name, initial) => {
    const { getByTestId, container } = render(<Avatar name={name} url={null} size={28} />);
    const el = getByTestId('avatar-initial');
    expect(el.textContent).toBe(initial);
    expect(el.getAttribute('aria-hidden')).toBe('true');
    expect((el as HTMLElement).style.width).toBe('28px');
    expect(container.querySelector('img')).toBeNull();
  });
});

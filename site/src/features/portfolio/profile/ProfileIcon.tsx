import { useState } from 'react';

/**
 * A technology or tool logo from the binary's icon set (/icons/<slug>.svg, simple-icons); a name
 * the set does not have shows the generic icon instead of a broken image.
 */
export function ProfileIcon({ name, size = 32 }: { name: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const src = failed || !/^[a-z0-9]+$/.test(name) ? '/icons/generic.svg' : `/icons/${name}.svg`;
  return (
    <img
      className="profile-icon"
      src={src}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      onError={() => setFailed(true)}
      data-icon={failed ? 'generic' : name}
    />
  );
}

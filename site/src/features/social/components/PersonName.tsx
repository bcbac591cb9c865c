import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/ui/Avatar';
import type { Person } from '../api';
import { SOCIAL_NS } from '../i18n';

/** An account's name, or "deleted account" / "contact form" for the two kinds without one. */
export function personName(t: (k: string) => string, p: Person, contact = false): string {
  if (contact) return t('contactForm');
  if (p.deleted || !p.name) return t('deletedAccount');
  return p.name;
}

/** An account's avatar (or its initial in a circle), then its name. */
export function PersonName({ person, contact = false }: { person: Person; contact?: boolean }) {
  const { t } = useTranslation(SOCIAL_NS);
  const name = personName(t, person, contact);
  return (
    <span className="social-person">
      {contact ? (
        <span className="social-person__avatar" aria-hidden="true">
          ✉
        </span>
      ) : (
        <Avatar name={name} url={person.avatar} size={32} />
      )}
      <span className="social-person__name">{name}</span>
    </span>
  );
}

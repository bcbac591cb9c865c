import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { socialUrl, useSiteSettings } from '../../lib/site';
import { MailIcon, PhoneIcon, PinIcon } from './icons';

function telHref(phone: string): string {
  return 'tel:' + phone.replace(/[^\d+]/g, '');
}

/** Footer on every page; contacts and social links come from GET /api/site (configuration). */
export function Footer() {
  const { t } = useTranslation();
  const settings = useSiteSettings();
  const c = settings?.contacts ?? {};
  const phones = (c.phones ?? []).filter(Boolean).slice(0, 2);
  const social = (['github', 'linkedin', 'telegram'] as const)
    .map((kind) => ({ kind, href: socialUrl(kind, c[kind]) }))
    .filter((s): s is { kind: typeof s.kind; href: string } => s.href !== null);
  const year = new Date().getFullYear();

  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        {/* Always shown: the contact form (open to guests) is listed there even with no contacts configured. */}
        <section aria-labelledby="footer-contacts">
          <h2 className="site-footer__heading" id="footer-contacts">
            {t('footer.contacts')}
          </h2>
          <ul className="site-footer__list">
            {c.email ? (
              <li>
                <MailIcon />
                <a href={`mailto:${c.email}`} aria-label={`${t('footer.email')}: ${c.email}`}>
                  {c.email}
                </a>
              </li>
            ) : null}
            {phones.map((p) => (
              <li key={p}>
                <PhoneIcon />
                <a href={telHref(p)} aria-label={`${t('footer.phone')}: ${p}`}>
                  {p}
                </a>
              </li>
            ))}
            {c.city ? (
              <li>
                <PinIcon />
                <span aria-label={`${t('footer.city')}: ${c.city}`}>{c.city}</span>
              </li>
            ) : null}
            <li>
              <Link to="/contact">{t('footer.contactForm')}</Link>
            </li>
          </ul>
        </section>

        {social.length ? (
          <section aria-labelledby="footer-social">
            <h2 className="site-footer__heading" id="footer-social">
              {t('footer.social')}
            </h2>
            <ul className="site-footer__list">
              {social.map((s) => (
                <li key={s.kind}>
                  <a href={s.href} target="_blank" rel="noopener noreferrer">
                    {t(`footer.${s.kind}`)}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section aria-labelledby="footer-legal">
          <h2 className="site-footer__heading" id="footer-legal">
            {t('footer.legal')}
          </h2>
          <ul className="site-footer__list">
            <li>
              <Link to="/privacy">{t('footer.privacy')}</Link>
            </li>
            <li>
              <Link to="/terms">{t('footer.terms')}</Link>
            </li>
          </ul>
        </section>
      </div>
      <p className="site-footer__bottom">{t('footer.copyright', { year })}</p>
    </footer>
  );
}

import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextField } from '../../../components/ui/Field';
import { useAuth, type User } from '../../../lib/auth';
import { errorText } from '../errors';
import { codeRequired, MAX_AVATAR_BYTES, useChangeEmail, useExportData, useRemoveAvatar, useSetAvatar, useSetName } from './api';
import { VERIFY_NS } from '../verify/i18n';
import { ResendVerification } from '../verify/ResendVerification';
import { DeleteAccountForm } from './DeleteAccountForm';
import { SELF_NS } from './i18n';
import './self.css';

/** The account's own settings: name, avatar, e-mail, a copy of its data, and deleting it. */
export function AccountSettings() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <>
      <NameForm user={user} />
      <AvatarForm user={user} />
      {user.emailVerified === false ? <EmailUnverified email={user.email} /> : null}
      <EmailForm user={user} />
      <ExportData />
      <DeleteAccountForm />
    </>
  );
}

/** A form's one status line: the failure (alert) or the success (status). */
function Status({ error, ok }: { error: string | null; ok: string | null }) {
  if (error) return <p className="auth-form__error" role="alert">{error}</p>;
  if (ok) return <p className="auth-form__success" role="status">{ok}</p>;
  return null;
}

function NameForm({ user }: { user: User }) {
  const { t } = useTranslation(SELF_NS);
  const { t: tc } = useTranslation();
  const id = useId();
  const [name, setName] = useState(user.name);
  const save = useSetName();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(name);
  };
  return (
    <form className="auth-form self-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`} className="auth-form__title">{t('name.title')}</h2>
      <div className="auth-form__field">
        <label htmlFor={`${id}-name`}>{t('name.label')}</label>
        <TextField id={`${id}-name`} name="name" autoComplete="name" maxLength={100} required value={name}
          onChange={(e) => { setName(e.target.value); save.reset(); }} />
      </div>
      <Status error={save.isError ? errorText(save.error, tc, t('failed')) : null} ok={save.isSuccess ? t('name.saved') : null} />
      <button type="submit" className="btn btn--primary" disabled={save.isPending || name.trim() === ''}>{t('save')}</button>
    </form>
  );
}

function AvatarForm({ user }: { user: User }) {
  const { t } = useTranslation(SELF_NS);
  const { t: tc } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const set = useSetAvatar();
  const remove = useRemoveAvatar();
  const onFile = (file: File | undefined) => {
    set.reset();
    remove.reset();
    setRefused(null);
    if (!file) return;
    if (file.size > MAX_AVATAR_BYTES) {
      setRefused(t('avatar.tooLarge'));
      return;
    }
    set.mutate(file);
  };
  const failed = set.isError ? set.error : remove.isError ? remove.error : null;
  return (
    <section className="auth-form self-form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="auth-form__title">{t('avatar.title')}</h2>
      <div className="self-avatar">
        {user.avatarUrl ? (
          <img className="self-avatar__img" src={user.avatarUrl} alt={t('avatar.current')} width={96} height={96} />
        ) : (
          <span className="self-avatar__img self-avatar__img--empty" aria-hidden="true">
            {(user.name || user.email).slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="self-avatar__actions">
          <label className="btn" htmlFor={`${id}-file`}>{t('avatar.choose')}</label>
          <input ref={input} id={`${id}-file`} className="self-avatar__input" type="file"
            accept="image/jpeg,image/png,image/gif,image/webp" aria-label={t('avatar.choose')}
            onChange={(e) => { onFile(e.target.files?.[0]); e.target.value = ''; }} />
          {user.avatarUrl ? (
            <button type="button" className="btn" onClick={() => remove.mutate()} disabled={remove.isPending}>
              {t('avatar.remove')}
            </button>
          ) : null}
        </div>
      </div>
      <p className="profile-section__hint">{t('avatar.hint')}</p>
      {set.isPending ? <p role="status">{t('avatar.uploading')}</p> : null}
      <Status error={refused ?? (failed ? errorText(failed, tc, t('failed')) : null)} ok={set.isSuccess ? t('avatar.saved') : null} />
    </section>
  );
}

/** An account registered while e-mail verification was on that has not opened its link yet. */
function EmailUnverified({ email }: { email: string }) {
  const { t } = useTranslation(VERIFY_NS);
  return (
    <section className="auth-form self-form" aria-label={t('notVerified')}>
      <p className="profile-section__hint">
        <span className="self-badge self-badge--warn">{t('notVerified')}</span> {t('unverified')}
      </p>
      <ResendVerification email={email} />
    </section>
  );
}

function EmailForm({ user }: { user: User }) {
  const { t, i18n } = useTranslation(SELF_NS);
  const { t: tc } = useTranslation();
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const change = useChangeEmail();
  const needsCode = change.isError && codeRequired(change.error);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate({ email, password, ...(code ? { code } : {}), lang: i18n.resolvedLanguage ?? i18n.language }, {
      onSuccess: () => { setPassword(''); setCode(''); setEmail(''); },
    });
  };
  let ok: string | null = null;
  if (change.isSuccess) {
    ok = change.data.pending ? t('email.pending', { email: change.variables.email.trim() }) : t('email.saved', { email: change.data.user.email });
  }
  return (
    <form className="auth-form self-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`} className="auth-form__title">{t('email.title')}</h2>
      <p className="profile-section__hint">{t('email.current', { email: user.email })}</p>
      <div className="auth-form__field">
        <label htmlFor={`${id}-email`}>{t('email.new')}</label>
        <TextField id={`${id}-email`} name="email" type="email" autoComplete="email" required value={email}
          onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="auth-form__field">
        <label htmlFor={`${id}-password`}>{t('password')}</label>
        <TextField id={`${id}-password`} name="password" type="password" autoComplete="current-password" required
          value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      {needsCode || code ? (
        <div className="auth-form__field">
          <label htmlFor={`${id}-code`}>{t('code')}</label>
          <TextField id={`${id}-code`} name="code" autoComplete="one-time-code" value={code}
            onChange={(e) => setCode(e.target.value)} />
        </div>
      ) : null}
      <Status error={change.isError ? errorText(change.error, tc, t('failed')) : null} ok={ok} />
      <button type="submit" className="btn btn--primary" disabled={change.isPending || !email || !password}>
        {t('email.submit')}
      </button>
    </form>
  );
}

function ExportData() {
  const { t } = useTranslation(SELF_NS);
  const { t: tc } = useTranslation();
  const id = useId();
  const run = useExportData();
  return (
    <section className="auth-form self-form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="auth-form__title">{t('export.title')}</h2>
      <p className="profile-section__hint">{t('export.hint')}</p>
      <Status error={run.isError ? errorText(run.error, tc, t('failed')) : null} ok={null} />
      <button type="button" className="btn" onClick={() => run.mutate()} disabled={run.isPending}>
        {run.isPending ? t('export.running') : t('export.submit')}
      </button>
    </section>
  );
}

/** The admin section's way to the portfolio editor (its own page, /profile/portfolio). */
export function PortfolioEditorLink() {
  const { t } = useTranslation(SELF_NS);
  return (
    <section className="profile-section self-form" aria-label={t('portfolio.title')}>
      <h2 className="profile-section__title">{t('portfolio.title')}</h2>
      <p className="profile-section__hint">{t('portfolio.hint')}</p>
      <Link className="btn btn--primary" to="/profile/portfolio">{t('portfolio.open')}</Link>
    </section>
  );
}

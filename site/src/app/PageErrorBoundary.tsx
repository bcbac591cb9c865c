import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function PageError() {
  const { t } = useTranslation();
  return (
    <div className="not-found" role="alert">
      <h1 className="not-found__title">{t('chunkError.title')}</h1>
      <p className="not-found__text">{t('chunkError.text')}</p>
      <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
        {t('chunkError.reload')}
      </button>
    </div>
  );
}

interface State {
  failed: boolean;
}

/** Catches a page that fails to load or render so the shell stays usable (keyed by path). */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: unknown): void {
    console.warn('[page] failed to load or render:', error);
  }

  render() {
    return this.state.failed ? <PageError /> : this.props.children;
  }
}

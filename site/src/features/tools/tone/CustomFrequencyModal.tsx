import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/Modal';
import { TONE_NS } from './i18n';
import { MAX_FREQUENCY, MIN_FREQUENCY, parseFrequency } from './tone';
import { TextField } from '../../../components/ui/Field';

interface Props {
  onPlay: (frequency: number) => void;
  onClose: () => void;
}

/** Spec §2/§5: Play and Cancel; an invalid value is only logged and the dialog stays open. */
export function CustomFrequencyModal({ onPlay, onClose }: Props) {
  const { t } = useTranslation(TONE_NS);
  const [value, setValue] = useState('');
  return (
    <Modal title={t('customTitle')} onClose={onClose} closeOnBackdrop={false}>
      <form
        noValidate
        className="tone-form"
        onSubmit={(e) => {
          e.preventDefault();
          const f = parseFrequency(value);
          if (f === null) {
            console.warn(`[tone] custom frequency "${value}" is not a number from ${MIN_FREQUENCY} to ${MAX_FREQUENCY} Hz`);
            return;
          }
          onPlay(f);
        }}
      >
        <label className="tone-field">
          <span>{t('customLabel')}</span>
          <TextField type="number" inputMode="decimal" step={0.01} min={MIN_FREQUENCY} max={MAX_FREQUENCY} value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        <div className="tone-form__actions">
          <button type="submit" className="btn btn--primary">
            {t('customPlay')}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {t('customCancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

import { createContext, useContext } from 'react';

/** True once localization is initialised; until then the shell shows only the brand. */
export const I18nReadyContext = createContext<boolean>(false);

export function useI18nReady(): boolean {
  return useContext(I18nReadyContext);
}

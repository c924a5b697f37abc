import { ResultsPage } from '../../lazyPage';
import { ANALYSIS_FAILED, OFFLINE_ERROR, SERVER_DOWN_ERROR, type ToastText } from './errors';

// readyToAnalyze is checked before a form sends an analysis: offline, or when the results screen's
// code cannot be loaded, the maker stays on the form and is told why. It returns that reason, or
// null when the analysis can start.
export async function readyToAnalyze(): Promise<ToastText | null> {
  if (!navigator.onLine) return { title: ANALYSIS_FAILED, description: OFFLINE_ERROR };
  try {
    await ResultsPage.preload();
    return null;
  } catch {
    return { title: ANALYSIS_FAILED, description: navigator.onLine ? SERVER_DOWN_ERROR : OFFLINE_ERROR };
  }
}

/** The navigation state that brings a failed analysis's reason back to its form. */
export interface FailureState {
  failure?: ToastText;
}

// The analysis hand-over between the form and the results screen.
// The form starts the request and navigates at once; the request writes its outcome to session
// storage and the results screen polls for it every 0.5 s.

import type { AttachmentInfo, AttachmentInput, TroubleshootingResult } from '../../api/client';
import type { SlicerSettings } from '../slicedfile/parse';

// IssueDetails is what the results screen shows under 'Original Issue Details'. A saved issue of a
// signed-in user also carries its id and status (used for 'Mark as Resolved').
export interface IssueDetails {
  id?: number;
  status?: string;
  resolutionNotes?: string | null;
  workingRecommendations?: string[] | null;
  /** A saved issue's ticked steps as the server has them (titles). */
  checkedSteps?: string[] | null;
  printerBrand?: string;
  printerName?: string;
  category: string;
  /** The category a saved issue's analysis diagnosed, when it found one. */
  diagnosedCategory?: string | null;
  description: string;
  material?: string | null;
  nozzleTemp?: number | null;
  bedTemp?: number | null;
  layerHeight?: number | null;
  printSpeed?: number | null;
  infill?: number | null;
  photos?: string[];
  /** Settings read from the sliced file, sent with the analysis (and with its refinements). */
  slicerSettings?: SlicerSettings | null;
  /** The printer's files sent with an anonymous analysis (and again with its refinements). */
  attachments?: AttachmentInput[];
  /** A saved issue's attached files: how many, and their names, kinds and sizes when known. */
  attachmentCount?: number;
  attachmentInfo?: AttachmentInfo[];
}

export const WAITING_KEY = 'analysisPending';
export const RESULTS_KEY = 'troubleshootingResults';
export const ISSUE_KEY = 'currentIssue';
export const ERROR_KEY = 'analysisError';

export const POLL_INTERVAL_MS = 500;
export const TIMEOUT_MS = 120_000;

let inFlight = 0;

function write(key: string, value: unknown): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the results screen times out and returns to the form.
  }
}

function read<T>(key: string): T | null {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function storeIssue(issue: IssueDetails): void {
  try {
    sessionStorage.setItem(ISSUE_KEY, JSON.stringify(issue));
  } catch {
    // Photos can fill the storage quota: keep the details without them.
    write(ISSUE_KEY, { ...issue, photos: [] });
  }
}

// startAnalysis sets the waiting flag and runs the request in the background. It does not wait.
export function startAnalysis(issue: IssueDetails, run: () => Promise<TroubleshootingResult>): void {
  sessionStorage.removeItem(RESULTS_KEY);
  sessionStorage.removeItem(ERROR_KEY);
  storeIssue(issue);
  write(WAITING_KEY, { startedAt: Date.now() });
  inFlight++;
  run()
    .then((result) => {
      write(RESULTS_KEY, result);
    })
    .catch((err: unknown) => {
      write(ERROR_KEY, { message: err instanceof Error ? err.message : String(err) });
    })
    .finally(() => {
      inFlight--;
      sessionStorage.removeItem(WAITING_KEY);
    });
}

// attachPhotos adds the downscaled photos to the stored issue once they are ready.
export function attachPhotos(photos: string[]): void {
  const issue = read<IssueDetails>(ISSUE_KEY);
  if (issue && photos.length > 0) storeIssue({ ...issue, photos });
}

// showStoredResult puts an existing result and its issue in place for the results screen (used by
// the dashboard and issue list to open a saved issue).
export function showStoredResult(result: TroubleshootingResult, issue: IssueDetails): void {
  sessionStorage.removeItem(WAITING_KEY);
  sessionStorage.removeItem(ERROR_KEY);
  write(RESULTS_KEY, result);
  storeIssue(issue);
}

export type AnalysisState =
  | { kind: 'waiting'; startedAt: number; lost: boolean }
  | { kind: 'done'; result: TroubleshootingResult; issue: IssueDetails | null }
  | { kind: 'failed'; error: Error }
  | { kind: 'none' };

// readAnalysis reports where the hand-over stands. A waiting flag without a request running in this
// page (the page was reloaded) is 'lost'.
export function readAnalysis(): AnalysisState {
  const error = read<{ message: string }>(ERROR_KEY);
  if (error) return { kind: 'failed', error: new Error(error.message) };
  const result = read<TroubleshootingResult>(RESULTS_KEY);
  if (result && Array.isArray(result.steps)) {
    return { kind: 'done', result, issue: read<IssueDetails>(ISSUE_KEY) };
  }
  const waiting = read<{ startedAt: number }>(WAITING_KEY);
  if (waiting) return { kind: 'waiting', startedAt: waiting.startedAt, lost: inFlight === 0 };
  return { kind: 'none' };
}

// clearAnalysisFailure removes the failure and the waiting flag once the form has been shown again.
export function clearAnalysis(): void {
  sessionStorage.removeItem(WAITING_KEY);
  sessionStorage.removeItem(ERROR_KEY);
}

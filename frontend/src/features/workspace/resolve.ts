// 'Mark as Resolved': pending or in progress becomes resolved, with the steps that worked.
import { resolveIssue, startIssue, type Issue, type IssueStatus } from '../../api/client';
import { parseHttpError } from '../troubleshoot/errors';
import { ISSUE_KEY, type IssueDetails } from '../troubleshoot/session';

export const NOTES_MAX = 1000;
export const RESOLVE_FAILED_DEFAULT = 'Failed to resolve the issue. Please try again.';

export function notesError(notes: string): string | undefined {
  return [...notes.trim()].length > NOTES_MAX ? 'Resolution notes must be less than 1000 characters' : undefined;
}

// resolveErrorText is the 'Resolution Failed' toast text: the server's message, else the default.
export function resolveErrorText(err: unknown): string {
  return parseHttpError(err)?.message || RESOLVE_FAILED_DEFAULT;
}

export interface SavedState {
  status: IssueStatus | string;
  resolvedAt?: string | null;
  workingRecommendations: string[];
  resolutionNotes: string | null;
}

// rememberIssueState updates the issue kept for the results screen, so a reload shows the change.
export function rememberIssueState(patch: Partial<IssueDetails> & { resolvedAt?: string | null }): void {
  try {
    const raw = sessionStorage.getItem(ISSUE_KEY);
    if (!raw) return;
    sessionStorage.setItem(ISSUE_KEY, JSON.stringify({ ...(JSON.parse(raw) as IssueDetails), ...patch }));
  } catch {
    // The change is saved on the server; only a reload of this screen would show the old state.
  }
}

export async function resolveSavedIssue(id: number, working: string[], notes: string): Promise<SavedState> {
  const updated: Issue = await resolveIssue(id, { workingRecommendations: working, resolutionNotes: notes.trim() });
  const state: SavedState = {
    status: updated?.status ?? 'resolved',
    resolvedAt: updated?.resolvedAt ?? new Date().toISOString(),
    workingRecommendations: updated?.workingRecommendations ?? working,
    resolutionNotes: updated ? updated.resolutionNotes : notes.trim() || null,
  };
  rememberIssueState(state);
  return state;
}

// markInProgress moves a pending issue to in-progress when its first step is ticked. A failure
// changes nothing the user sees, so it is ignored.
export async function markInProgress(id: number): Promise<boolean> {
  try {
    await startIssue(id);
    rememberIssueState({ status: 'in-progress' });
    return true;
  } catch {
    return false;
  }
}

// Issues the visitor shared from this browser, kept locally so that /preview?share={shareId} can
// load them back into the form.
import type { IssueDetails } from './session';

const PREFIX = 'layerfix.shared.';

export function rememberSharedIssue(shareId: string, issue: IssueDetails): void {
  try {
    // Photos and the printer's files stay out: a log or config is kept in this tab only.
    const { attachments: _files, attachmentInfo: _names, ...rest } = issue;
    localStorage.setItem(PREFIX + shareId, JSON.stringify({ ...rest, photos: [] }));
  } catch {
    // Nothing to load back later; sharing itself still works.
  }
}

export function loadSharedIssue(shareId: string): IssueDetails | null {
  try {
    const raw = localStorage.getItem(PREFIX + shareId);
    const issue = raw ? (JSON.parse(raw) as IssueDetails) : null;
    return issue && typeof issue.description === 'string' ? issue : null;
  } catch {
    return null;
  }
}

// Opening a saved issue at its own address, /issues/:id, with the same results screen.
import type { Issue, TroubleshootingResult } from '../../api/client';
import { loadCheckedSteps, resultKey } from '../troubleshoot/checkedSteps';
import { normalizeAnswers } from '../troubleshoot/rerank';
import type { IssueDetails } from '../troubleshoot/session';

export const UNKNOWN_PRINTER = 'Unknown Printer';
export const UNKNOWN_BRAND = 'Unknown Brand';

export type SavedIssueDetails = IssueDetails & { resolvedAt?: string | null };

// issueDetails is a saved issue as the results screen stores it.
export function issueDetails(issue: Issue): SavedIssueDetails {
  return {
    id: issue.id,
    status: issue.status,
    resolvedAt: issue.resolvedAt,
    resolutionNotes: issue.resolutionNotes,
    workingRecommendations: issue.workingRecommendations ?? [],
    checkedSteps: issue.checkedSteps ?? null,
    printerName: issue.printer?.name ?? UNKNOWN_PRINTER,
    printerBrand: issue.printer?.brand ?? UNKNOWN_BRAND,
    category: issue.category,
    diagnosedCategory: issue.diagnosedCategory ?? null,
    description: issue.description,
    material: issue.material,
    nozzleTemp: issue.nozzleTemp,
    bedTemp: issue.bedTemp,
    layerHeight: issue.layerHeight,
    printSpeed: issue.printSpeed,
    infill: issue.infill,
    // Photo URLs come signed and with the base path from the server.
    photos: issue.photoUrls ?? [],
    attachmentCount: issue.attachmentCount ?? issue.attachments?.length ?? 0,
    attachmentInfo: issue.attachments,
  };
}

// An issue whose analysis is missing still opens, with an empty result.
export function resultOf(issue: Issue): TroubleshootingResult {
  const r = issue.aiChecklist;
  return {
    summary: r?.summary ?? '',
    steps: Array.isArray(r?.steps) ? r.steps : [],
    additionalTips: Array.isArray(r?.additionalTips) ? r.additionalTips : [],
    questions: Array.isArray(r?.questions) ? r.questions : undefined,
    answers: normalizeAnswers(r?.answers),
    signature: issue.aiChecklistSignature,
  };
}

/** A saved issue's own address (owner only): it can be bookmarked and opened in another tab. */
export function issuePath(id: number): string {
  return `/issues/${id}`;
}

// The issue a screen opens, handed to /issues/:id so it shows at once, without another request.
let handedOff: Issue | null = null;

/** Hands the issue about to be opened to its page (the list and the dashboard have it already). */
export function handOffIssue(issue: Issue): void {
  handedOff = issue;
}

/** The issue handed to /issues/:id, when it is that one. */
export function handedOffIssue(id: number): Issue | null {
  return handedOff?.id === id ? handedOff : null;
}

// preselectedRecommendations is what 'Mark as Resolved' starts with: the titles of the ticked
// steps, in step order.
export function preselectedRecommendations(steps: readonly { title: string }[], checked: readonly number[]): string[] {
  return steps.filter((_, i) => checked.includes(i)).map((s) => s.title);
}

// tickedStepsOf reads the ticks remembered for a saved issue.
export function tickedStepsOf(result: TroubleshootingResult, issueId: number): number[] {
  return loadCheckedSteps(resultKey(result, issueId), result.steps.length);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

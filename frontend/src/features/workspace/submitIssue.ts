// The signed-in analysis: upload photos, save the issue (the server runs the analysis) and hand
// the result to the results screen (SPEC section 4 "Analysis flow").
import { createIssue, uploadImages, type Printer } from '../../api/client';
import { ISSUE_KEY, startAnalysis, type IssueDetails } from '../troubleshoot/session';
import { issuePayload, type IssueFormValues } from './issueValidation';
import { issueDetails, resultOf } from './savedIssue';
import { resizeForUpload } from '../troubleshoot/images';
import { apiSlicerSettings } from '../slicedfile/SlicedFileImport';
import type { SlicerSettings } from '../slicedfile/parse';
import { apiAttachments, type Attachment } from '../attachments/attachments';

export const DRAFT_KEY = 'layerfix.issueDraft';

// The form is kept until the analysis succeeds, so a failure or time-out returns to a filled form.
export function saveDraft(values: IssueFormValues): void {
  try {
    sessionStorage.setItem(DRAFT_KEY, JSON.stringify(values));
  } catch {
    // No draft: the form comes back empty.
  }
}

export function loadDraft(): IssueFormValues | null {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    const v = raw ? (JSON.parse(raw) as IssueFormValues) : null;
    return v && typeof v.description === 'string' && typeof v.category === 'string' ? v : null;
  } catch {
    return null;
  }
}

export function clearDraft(): void {
  sessionStorage.removeItem(DRAFT_KEY);
}

// uploadPhotos resizes the photos in the browser and returns their stored URLs; no request
// without photos.
export async function uploadPhotos(files: File[]): Promise<string[]> {
  if (files.length === 0) return [];
  const { images } = await uploadImages(await Promise.all(files.map(resizeForUpload)));
  return images.map((i) => i.url);
}

// startIssueAnalysis saves the issue in the background; the caller navigates to the results at once.
export function startIssueAnalysis(
  values: IssueFormValues,
  printer: Printer | undefined,
  photoUrls: string[],
  onSaved: () => void,
  slicer: SlicerSettings | null = null,
  attachments: Attachment[] = [],
): void {
  const payload = {
    ...issuePayload(values, photoUrls),
    ...(slicer ? { slicerSettings: apiSlicerSettings(slicer) } : {}),
    ...(attachments.length > 0 ? { attachments: apiAttachments(attachments) } : {}),
  };
  const pending: IssueDetails = {
    printerName: printer?.name,
    printerBrand: printer?.brand,
    category: payload.category,
    description: payload.description,
    material: payload.material,
    nozzleTemp: payload.nozzleTemp,
    bedTemp: payload.bedTemp,
    layerHeight: payload.layerHeight,
    printSpeed: payload.printSpeed,
    infill: payload.infill,
    photos: photoUrls,
    attachmentCount: attachments.length,
    attachmentInfo: attachments.map((a) => ({ name: a.name, kind: a.kind, label: a.label, bytes: a.bytes })),
  };
  saveDraft(values);
  startAnalysis(pending, async () => {
    const saved = await createIssue(payload);
    if (!saved.aiChecklist || !Array.isArray(saved.aiChecklist.steps)) throw new Error('Failed to submit issue. Please try again.');
    // The saved issue has an id and a status, which 'Mark as Resolved' needs.
    const details = issueDetails({ ...saved, printer: saved.printer ?? (printer ? { name: printer.name, brand: printer.brand } : null) });
    sessionStorage.setItem(ISSUE_KEY, JSON.stringify(details));
    clearDraft();
    onSaved();
    return resultOf(saved);
  });
}

// The signed-in analysis: upload photos, save the issue (the server runs the analysis) and hand
// the result to the results screen, which shows the form again on failure.
import { createIssue, uploadImages, type Printer } from '../../api/client';
import { ISSUE_KEY, startAnalysis, type IssueDetails } from '../troubleshoot/session';
import { issuePayload, type IssueFormValues } from './issueValidation';
import { issueDetails, resultOf } from './savedIssue';
import { clearFormDraft } from '../issueform/draft';
import { resizeForUpload } from '../troubleshoot/images';
import { apiSlicerSettings } from '../slicedfile/SlicedFileImport';
import type { SlicerSettings } from '../slicedfile/parse';
import { apiAttachments, type Attachment } from '../attachments/attachments';

// uploadPhotos resizes the photos in the browser and returns their stored URLs; no request
// without photos.
export async function uploadPhotos(files: File[]): Promise<string[]> {
  if (files.length === 0) return [];
  const { images } = await uploadImages(await Promise.all(files.map(resizeForUpload)));
  return images.map((i) => i.url);
}

// startIssueAnalysis saves the issue in the background; the caller navigates to the results at once.
// The form's draft goes once the analysis succeeded.
export function startIssueAnalysis(
  draftKey: string | null,
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
  startAnalysis(pending, async () => {
    const saved = await createIssue(payload);
    if (!saved.aiChecklist || !Array.isArray(saved.aiChecklist.steps)) throw new Error('Failed to submit issue. Please try again.');
    // The saved issue has an id and a status, which 'Mark as Resolved' needs.
    const details = issueDetails({ ...saved, printer: saved.printer ?? (printer ? { name: printer.name, brand: printer.brand } : null) });
    sessionStorage.setItem(ISSUE_KEY, JSON.stringify(details));
    if (draftKey) clearFormDraft(draftKey);
    onSaved();
    return resultOf(saved);
  });
}

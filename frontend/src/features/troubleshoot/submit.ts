import { troubleshoot, type TroubleshootInput } from '../../api/client';
import { apiAttachments, type Attachment } from '../attachments/attachments';
import { ANONYMOUS_DRAFT, clearFormDraft } from '../issueform/draft';
import { issueFields } from '../issueform/validation';
import { apiSlicerSettings } from '../slicedfile/SlicedFileImport';
import type { SlicerSettings } from '../slicedfile/parse';
import { downscaleImage, stripDataUrl } from './images';
import { attachPhotos, startAnalysis, type IssueDetails } from './session';
import type { TroubleshootFormValues } from './validation';

// issueFromForm is the issue as the results screen shows it.
export function issueFromForm(v: TroubleshootFormValues, slicer: SlicerSettings | null = null, attachments: Attachment[] = []): IssueDetails {
  return { printerBrand: v.printerBrand.trim(), ...issueFields(v), photos: [], slicerSettings: slicer, attachments: apiAttachments(attachments) };
}

export function buildPayload(issue: IssueDetails, images: string[]): TroubleshootInput {
  return {
    category: issue.category,
    description: issue.description,
    material: issue.material ?? null,
    nozzleTemp: issue.nozzleTemp ?? null,
    bedTemp: issue.bedTemp ?? null,
    layerHeight: issue.layerHeight ?? null,
    printSpeed: issue.printSpeed ?? null,
    infill: issue.infill ?? null,
    printerBrand: issue.printerBrand ?? '',
    images,
    screenDimensions: { width: window.screen?.width ?? 0, height: window.screen?.height ?? 0 },
    ...(issue.slicerSettings ? { slicerSettings: apiSlicerSettings(issue.slicerSettings) } : {}),
    ...(issue.attachments?.length ? { attachments: apiAttachments(issue.attachments) } : {}),
  };
}

// submitAnonymousAnalysis starts the analysis in the background; the caller navigates to the
// results screen at once. onSettled runs after success or failure (to refresh the credits badge).
export function submitAnonymousAnalysis(
  values: TroubleshootFormValues,
  photos: File[],
  onSettled: () => void,
  slicer: SlicerSettings | null = null,
  attachments: Attachment[] = [],
): void {
  const issue = issueFromForm(values, slicer, attachments);
  startAnalysis(issue, async () => {
    try {
      const dataUrls = await Promise.all(photos.map(downscaleImage));
      attachPhotos(dataUrls);
      const result = await troubleshoot(buildPayload(issue, dataUrls.map(stripDataUrl)));
      clearFormDraft(ANONYMOUS_DRAFT);
      return result;
    } finally {
      onSettled();
    }
  });
}

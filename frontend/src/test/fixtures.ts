import type { Issue, Printer } from '../api/client';

/** A saved issue with no print settings, photos or AI result; a test patches what it needs. */
export function testIssue(patch: Partial<Issue> = {}): Issue {
  return {
    id: 1,
    userId: 1,
    printerId: 1,
    category: 'other',
    description: 'something went wrong',
    material: null,
    nozzleTemp: null,
    bedTemp: null,
    layerHeight: null,
    printSpeed: null,
    infill: null,
    photoUrls: [],
    aiChecklist: null,
    status: 'pending',
    resolvedAt: null,
    workingRecommendations: [],
    resolutionNotes: null,
    createdAt: '2025-03-01T10:00:00Z',
    printer: null,
    diagnosedCategory: null,
    slicerSettings: null,
    checkedSteps: null,
    attachmentCount: 0,
    ...patch,
  };
}

/** A saved printer without a host; a test patches what it needs. */
export function testPrinter(patch: Partial<Printer> = {}): Printer {
  return {
    id: 1,
    userId: 1,
    name: 'Printer',
    brand: 'Creality',
    nozzleSize: 0.4,
    filamentDiameter: 1.75,
    buildVolume: null,
    createdAt: '2025-03-01T10:00:00Z',
    host: null,
    ...patch,
  };
}

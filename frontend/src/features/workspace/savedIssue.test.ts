import { beforeEach, expect, test } from 'vitest';
import type { Issue } from '../../api/client';
import { saveCheckedSteps } from '../troubleshoot/checkedSteps';
import { handedOffIssue, handOffIssue, issueDetails, issuePath, preselectedRecommendations, tickedStepsOf } from './savedIssue';

const steps = [
  { title: 'Level the bed', description: '', priority: 'high' as const },
  { title: 'Clean the plate', description: '', priority: 'medium' as const },
  { title: 'Use a brim', description: '', priority: 'low' as const },
];
const result = { summary: 'Corners lift.', steps, additionalTips: [] };

const saved: Issue = {
  id: 42,
  userId: 1,
  printerId: null,
  category: 'bed-adhesion',
  description: 'Corners lift after a few layers',
  material: 'PLA',
  nozzleTemp: 210,
  bedTemp: null,
  layerHeight: null,
  printSpeed: null,
  infill: null,
  photoUrls: ['/api/photos/abc.jpg?sig=1'],
  aiChecklist: result,
  status: 'in-progress',
  resolvedAt: null,
  workingRecommendations: [],
  resolutionNotes: null,
  createdAt: '2025-03-12T10:00:00Z',
  printer: null,
  diagnosedCategory: null,
  slicerSettings: null,
  checkedSteps: null,
  attachmentCount: 0,
};

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

test('the ticked steps are preselected as working recommendations, in step order', () => {
  expect(preselectedRecommendations(steps, [2, 0])).toEqual(['Level the bed', 'Use a brim']);
  expect(preselectedRecommendations(steps, [])).toEqual([]);
});

test('the ticks of a saved issue are read back by its id', () => {
  saveCheckedSteps('issue-42', [1]);
  expect(preselectedRecommendations(steps, tickedStepsOf(result, 42))).toEqual(['Clean the plate']);
  expect(tickedStepsOf(result, 43)).toEqual([]);
});

test('a list hands the issue it opens to /issues/:id, for that id only', () => {
  handOffIssue(saved);
  expect(issuePath(42)).toBe('/issues/42');
  expect(handedOffIssue(42)).toBe(saved);
  expect(handedOffIssue(43)).toBeNull();
});

test('a deleted printer reads as Unknown Printer (Unknown Brand)', () => {
  expect(issueDetails(saved)).toMatchObject({ printerName: 'Unknown Printer', printerBrand: 'Unknown Brand' });
});

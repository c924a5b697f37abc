import { beforeEach, describe, expect, it } from 'vitest';
import type { TroubleshootingResult } from '../../api/client';
import { loadCheckedSteps, resultKey, saveCheckedSteps, toggleStep } from './checkedSteps';
import { priorityLabel } from './priority';

const result: TroubleshootingResult = {
  summary: 'Stringing from too little retraction.',
  steps: [
    { title: 'Tune retraction', description: 'd', priority: 'high' },
    { title: 'Lower temperature', description: 'd', priority: 'medium' },
    { title: 'Dry filament', description: 'd', priority: 'low' },
  ],
  additionalTips: [],
};

describe('priorityLabel', () => {
  it('labels high, medium and low as Most Likely, Worth Checking and Less Common', () => {
    expect(priorityLabel('high')).toBe('Most Likely');
    expect(priorityLabel('medium')).toBe('Worth Checking');
    expect(priorityLabel('low')).toBe('Less Common');
  });
});

describe('checked steps', () => {
  beforeEach(() => localStorage.clear());

  it('remembers ticks per result', () => {
    const a = resultKey(result);
    const b = resultKey({ ...result, summary: 'Something else entirely.' });
    expect(a).not.toBe(b);
    saveCheckedSteps(a, [0, 2]);
    expect(loadCheckedSteps(a, 3)).toEqual([0, 2]);
    expect(loadCheckedSteps(b, 3)).toEqual([]);
  });

  it('keys saved issues by id', () => {
    expect(resultKey(result, 42)).toBe('issue-42');
    expect(resultKey(result)).toMatch(/^result-[0-9a-f]{8}$/);
  });

  it('drops indices that do not exist and survives garbage', () => {
    saveCheckedSteps('k', [1, 7, -1]);
    expect(loadCheckedSteps('k', 3)).toEqual([1]);
    localStorage.setItem('layerfix.checkedSteps.k', '{not json');
    expect(loadCheckedSteps('k', 3)).toEqual([]);
  });

  it('toggles in order and clears storage when nothing is ticked', () => {
    expect(toggleStep([2], 0)).toEqual([0, 2]);
    expect(toggleStep([0, 2], 2)).toEqual([0]);
    saveCheckedSteps('k', [0]);
    saveCheckedSteps('k', []);
    expect(localStorage.getItem('layerfix.checkedSteps.k')).toBeNull();
  });
});

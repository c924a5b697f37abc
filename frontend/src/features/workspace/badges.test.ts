import { expect, test } from 'vitest';
import { categoryBadge, shownCategory, statusBadge } from './badges';

test('status badges: green resolved, yellow in progress, grey otherwise', () => {
  expect(statusBadge('resolved')).toEqual({ label: 'Resolved', color: 'success' });
  expect(statusBadge('in-progress')).toEqual({ label: 'In Progress', color: 'warning' });
  expect(statusBadge('pending').color).toBe('default');
  expect(statusBadge(undefined).color).toBe('default');
  expect(statusBadge('something-new').color).toBe('default');
});

test('category badges cover current and older values', () => {
  expect(categoryBadge('bed-adhesion').label).toBe('Bed Adhesion & Warping');
  expect(categoryBadge('under_extrusion')).toEqual({ label: 'Under Extrusion', color: 'warning' });
  for (const old of ['adhesion', 'warping', 'stringing', 'under_extrusion', 'over_extrusion', 'layer_separation']) {
    expect(categoryBadge(old).color).not.toBe('default');
  }
  expect(categoryBadge('unheard-of')).toEqual({ label: 'unheard-of', color: 'default' });
});

test("an issue left on 'Other' shows the diagnosed category; the maker's choice wins where they made one", () => {
  expect(shownCategory({ category: 'other', diagnosedCategory: 'extrusion-issues' })).toBe('extrusion-issues');
  expect(shownCategory({ category: 'stringing', diagnosedCategory: 'extrusion-issues' })).toBe('stringing');
  expect(shownCategory({ category: 'other', diagnosedCategory: null })).toBe('other');
  expect(shownCategory({ category: 'other' })).toBe('other');
  expect(categoryBadge(shownCategory({ category: 'other', diagnosedCategory: 'extrusion-issues' })).label).toBe('Extrusion Issues');
});

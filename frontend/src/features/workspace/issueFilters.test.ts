import { describe, expect, test } from 'vitest';
import type { Issue } from '../../api/client';
import { testIssue } from '../../test/fixtures';
import { distinctPrinterNames, filterIssues, filtersActive, filtersFromSearch, filtersToSearch, NO_FILTERS, pageQuery } from './issueFilters';

function issue(id: number, createdAt: Date, patch: Partial<Issue> = {}): Issue {
  return testIssue({ id, createdAt: createdAt.toISOString(), printer: { name: 'Ender', brand: 'Creality' }, ...patch });
}

// Local times, as the date inputs are read in the user's time zone.
const issues = [
  issue(1, new Date(2025, 2, 10, 9, 0)),
  issue(2, new Date(2025, 2, 12, 23, 30), { status: 'resolved', printer: { name: 'MK4', brand: 'Prusa' } }),
  issue(3, new Date(2025, 2, 13, 0, 0, 1), { status: 'in-progress' }),
  issue(4, new Date(2025, 2, 14, 12, 0), { printer: null, printerId: null }),
];
const ids = (list: Issue[]) => list.map((i) => i.id);

describe('filterIssues', () => {
  test('no filters keeps everything', () => {
    expect(ids(filterIssues(issues, NO_FILTERS))).toEqual([1, 2, 3, 4]);
    expect(filtersActive(NO_FILTERS)).toBe(false);
  });

  test('the end date includes the whole day', () => {
    const f = { ...NO_FILTERS, endDate: '2025-03-12' };
    expect(ids(filterIssues(issues, f))).toEqual([1, 2]);
    expect(filtersActive(f)).toBe(true);
  });

  test('the start date begins at midnight', () => {
    expect(ids(filterIssues(issues, { ...NO_FILTERS, startDate: '2025-03-13' }))).toEqual([3, 4]);
    expect(ids(filterIssues(issues, { ...NO_FILTERS, startDate: '2025-03-12', endDate: '2025-03-12' }))).toEqual([2]);
  });

  test('status and printer', () => {
    expect(ids(filterIssues(issues, { ...NO_FILTERS, status: 'resolved' }))).toEqual([2]);
    expect(ids(filterIssues(issues, { ...NO_FILTERS, status: 'in-progress' }))).toEqual([3]);
    // New issues stay pending until a step is ticked: they must be findable.
    expect(ids(filterIssues(issues, { ...NO_FILTERS, status: 'pending' }))).toEqual([1, 4]);
    expect(ids(filterIssues(issues, { ...NO_FILTERS, status: 'open' }))).toEqual([1, 3, 4]);
    expect(ids(filterIssues(issues, { ...NO_FILTERS, printer: 'Ender' }))).toEqual([1, 3]);
  });
});

test('distinct printer names, without deleted printers', () => {
  expect(distinctPrinterNames(issues)).toEqual(['Ender', 'MK4']);
});

describe('pageQuery', () => {
  test('no filters: just the page size', () => {
    expect(pageQuery(NO_FILTERS, 50)).toBe('limit=50');
  });
  test('status, printer and local days as instants for the server', () => {
    const q = new URLSearchParams(pageQuery({ ...NO_FILTERS, printer: 'Mk4 & co', status: 'open', startDate: '2026-03-01', endDate: '2026-03-31' }, 20));
    expect(q.get('limit')).toBe('20');
    expect(q.get('status')).toBe('open');
    expect(q.get('printer')).toBe('Mk4 & co');
    expect(q.get('from')).toBe(new Date(2026, 2, 1).toISOString());
    expect(q.get('to')).toBe(new Date(2026, 2, 31, 23, 59, 59, 999).toISOString());
  });
});

describe('filters in the address', () => {
  test('search and category go to the server', () => {
    const q = new URLSearchParams(pageQuery({ ...NO_FILTERS, q: 'blob', category: 'extrusion-issues' }, 20));
    expect(q.get('q')).toBe('blob');
    expect(q.get('category')).toBe('extrusion-issues');
  });
  test('a bookmarked address gives back the same filters; only the set ones are written', () => {
    const f = { printer: 'Mk4 & co', status: 'resolved' as const, startDate: '2026-03-01', endDate: '2026-03-31', category: 'stringing', q: 'hairs' };
    expect(filtersToSearch(f).toString()).toBe('q=hairs&category=stringing&printer=Mk4+%26+co&status=resolved&from=2026-03-01&to=2026-03-31');
    expect(filtersFromSearch(filtersToSearch(f))).toEqual(f);
    expect(filtersToSearch(NO_FILTERS).toString()).toBe('');
    expect(filtersActive({ ...NO_FILTERS, q: 'x' })).toBe(true);
    expect(filtersActive({ ...NO_FILTERS, category: 'other' })).toBe(true);
  });
  test('an edited address cannot ask for an unknown status, category or a malformed day', () => {
    const f = filtersFromSearch(new URLSearchParams({ status: 'lost', category: '<x>', from: '1 May', to: '2026-13', q: `  ${'a'.repeat(300)} ` }));
    expect(f).toEqual({ ...NO_FILTERS, q: 'a'.repeat(100) });
  });
});

// The filters of /issues, kept in the address so a filtered list can be
// bookmarked and Back returns to it.
import type { Issue } from '../../api/client';
import { CATEGORIES } from '../troubleshoot/categories';

// 'open' is every issue not resolved yet (pending or in progress).
export type StatusFilter = 'all' | 'open' | 'pending' | 'in-progress' | 'resolved';

export const STATUS_FILTERS: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'pending', label: 'Pending' },
  { value: 'in-progress', label: 'In Progress' },
  { value: 'resolved', label: 'Resolved' },
];

function statusMatches(status: string, f: StatusFilter): boolean {
  if (f === 'all') return true;
  if (f === 'open') return status !== 'resolved';
  return status === f;
}

export interface IssueFilters {
  printer: string; // '' is every printer
  status: StatusFilter;
  startDate: string; // yyyy-mm-dd, '' when unset
  endDate: string;
  /** The shown category (the maker's choice, or the diagnosed one for 'other'); '' is every one. */
  category: string;
  /** Text in the description or the resolution notes, trimmed; '' is no search. */
  q: string;
}

export const NO_FILTERS: IssueFilters = { printer: '', status: 'all', startDate: '', endDate: '', category: '', q: '' };

/** The longest search the server takes. */
export const SEARCH_MAX = 100;

export function filtersActive(f: IssueFilters): boolean {
  return f.printer !== '' || f.status !== 'all' || f.startDate !== '' || f.endDate !== '' || f.category !== '' || f.q !== '';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters an address asks for; anything unknown or malformed is left unset. */
export function filtersFromSearch(params: URLSearchParams): IssueFilters {
  const get = (k: string) => params.get(k) ?? '';
  const status = get('status');
  const category = get('category');
  return {
    printer: get('printer').slice(0, 100),
    status: STATUS_FILTERS.some((o) => o.value === status) ? (status as StatusFilter) : 'all',
    startDate: DAY.test(get('from')) ? get('from') : '',
    endDate: DAY.test(get('to')) ? get('to') : '',
    category: CATEGORIES.some((c) => c.value === category) ? category : '',
    q: get('q').trim().slice(0, SEARCH_MAX),
  };
}

/** The address query of these filters: only the ones set, so the plain list stays /issues. */
export function filtersToSearch(f: IssueFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (f.q) out.set('q', f.q);
  if (f.category) out.set('category', f.category);
  if (f.printer) out.set('printer', f.printer);
  if (f.status !== 'all') out.set('status', f.status);
  if (f.startDate) out.set('from', f.startDate);
  if (f.endDate) out.set('to', f.endDate);
  return out;
}

// distinctPrinterNames lists each printer name once, sorted, for the printer filter.
export function distinctPrinterNames(issues: readonly Issue[]): string[] {
  const names = new Set<string>();
  for (const i of issues) if (i.printer?.name) names.add(i.printer.name);
  return [...names].sort((a, b) => a.localeCompare(b));
}

// localDay parses yyyy-mm-dd as a local date; the end of the day when `end` is set.
function localDay(value: string, end: boolean): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  return end ? new Date(y, mo, d, 23, 59, 59, 999).getTime() : new Date(y, mo, d).getTime();
}

// pageQuery is the query of GET /api/issues for these filters: the server filters and pages.
// Dates are local days, sent as the instants where they begin and end.
export function pageQuery(f: IssueFilters, limit: number): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (f.status !== 'all') q.set('status', f.status);
  if (f.printer) q.set('printer', f.printer);
  if (f.category) q.set('category', f.category);
  if (f.q) q.set('q', f.q);
  const start = localDay(f.startDate, false);
  const end = localDay(f.endDate, true);
  if (start !== null) q.set('from', new Date(start).toISOString());
  if (end !== null) q.set('to', new Date(end).toISOString());
  return q.toString();
}

// filterIssues keeps the issues matching every active filter. The end date includes its whole day.
export function filterIssues(issues: readonly Issue[], f: IssueFilters): Issue[] {
  const start = localDay(f.startDate, false);
  const end = localDay(f.endDate, true);
  return issues.filter((issue) => {
    if (f.printer && issue.printer?.name !== f.printer) return false;
    if (!statusMatches(issue.status, f.status)) return false;
    if (start !== null || end !== null) {
      const created = new Date(issue.createdAt).getTime();
      if (Number.isNaN(created)) return false;
      if (start !== null && created < start) return false;
      if (end !== null && created > end) return false;
    }
    return true;
  });
}

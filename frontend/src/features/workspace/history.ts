// Per-printer history on the dashboard (GET /api/printers/stats): issues per month, the most
// frequent categories and the share resolved ("track printer performance over time").
import useSWR from 'swr';
import { useAuth } from '../../auth/useAuth';

export interface MonthCount {
  month: string; // yyyy-mm
  count: number;
}

export interface CategoryCount {
  category: string;
  label: string;
  count: number;
}

export interface PrinterHistory {
  printerId: number | null; // null: issues of deleted printers
  name: string;
  brand: string;
  total: number;
  pending: number;
  inProgress: number;
  resolved: number;
  resolvedShare: number; // 0..1
  months: MonthCount[]; // oldest first
  topCategories: CategoryCount[];
}

export const STATS_KEY = '/api/printers/stats';
export const SHOWN_MONTHS = 6;

// historyByPrinter indexes the stats by printer id; a failed or odd answer is no history.
export function historyByPrinter(data: unknown): Map<number, PrinterHistory> {
  const out = new Map<number, PrinterHistory>();
  const list = (data as { printers?: unknown } | null)?.printers;
  if (!Array.isArray(list)) return out;
  for (const h of list as PrinterHistory[]) {
    if (typeof h?.printerId === 'number' && Array.isArray(h.months)) out.set(h.printerId, h);
  }
  return out;
}

export function usePrinterHistory(): Map<number, PrinterHistory> {
  const { user } = useAuth();
  const { data } = useSWR<unknown>(user ? STATS_KEY : null);
  return historyByPrinter(data);
}

export function recentMonths(months: readonly MonthCount[], n = SHOWN_MONTHS): MonthCount[] {
  return months.slice(-n);
}

export function resolvedPercent(h: Pick<PrinterHistory, 'resolvedShare'>): number {
  return Math.round(Math.min(1, Math.max(0, h.resolvedShare)) * 100);
}

export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(y, m - 1, 1).toLocaleDateString(undefined, { month: 'short' });
}

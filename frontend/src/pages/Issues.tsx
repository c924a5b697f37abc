// /issues 'All Issues': search and filters (kept in the address), the issue cards
// and the export. Back from an issue returns to the same place in the list.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useNavigationType, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddCircleOutlineRounded from '@mui/icons-material/AddCircleOutlineRounded';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import FilterAltOffRounded from '@mui/icons-material/FilterAltOffRounded';
import InboxRounded from '@mui/icons-material/InboxRounded';
import SearchOffRounded from '@mui/icons-material/SearchOffRounded';
import SearchRounded from '@mui/icons-material/SearchRounded';
import type { Issue } from '../api/client';
import { ExportButton } from '../features/workspace/ExportButton';
import { CATEGORIES } from '../features/troubleshoot/categories';
import { PAGE_SIZE, useIssuePages, useIssueSummary, usePrinters } from '../features/workspace/hooks';
import { IssueCard } from '../features/workspace/IssueCard';
import {
  filtersActive,
  filtersFromSearch,
  filtersToSearch,
  NO_FILTERS,
  SEARCH_MAX,
  STATUS_FILTERS,
  type IssueFilters,
  type StatusFilter,
} from '../features/workspace/issueFilters';
import { listPlace, rememberListPlace } from '../features/workspace/listPlace';
import { handOffIssue, issuePath } from '../features/workspace/savedIssue';

/** How long typing pauses before the search runs. */
export const SEARCH_DELAY_MS = 300;

/** The search box: what is typed shows at once, the search runs once typing pauses. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  // A search changed elsewhere (Clear Filters, Back) shows in the box.
  useEffect(() => {
    setText((t) => (t.trim() === value ? t : value));
  }, [value]);
  useEffect(() => {
    const q = text.trim();
    if (q === value) return;
    const timer = setTimeout(() => onSearch(q), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <TextField
      type="search"
      size="small"
      label="Search"
      placeholder="Description or notes"
      value={text}
      onChange={(e) => setText(e.target.value)}
      sx={{ gridColumn: { xs: '1 / -1', md: 'span 2' } }}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { maxLength: SEARCH_MAX },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchRounded fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

function EmptyState({ icon, title, text, action }: { icon: ReactNode; title: string; text: string; action?: ReactNode }) {
  return (
    <Card>
      <CardContent sx={{ textAlign: 'center', py: 6, px: 3 }}>
        <Box sx={{ color: 'text.secondary', mb: 1, '& svg': { fontSize: 48 } }}>{icon}</Box>
        <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
          {title}
        </Typography>
        <Typography sx={{ color: 'text.secondary', mb: action ? 2.5 : 0 }}>{text}</Typography>
        {action}
      </CardContent>
    </Card>
  );
}

function Filters({ filters, printerNames, onChange }: { filters: IssueFilters; printerNames: string[]; onChange: (f: IssueFilters) => void }) {
  const set = <K extends keyof IssueFilters>(k: K, v: IssueFilters[K]) => onChange({ ...filters, [k]: v });
  // The latest filters for the debounced search, which fires after they may have changed.
  const latest = useRef({ filters, onChange });
  latest.current = { filters, onChange };
  const search = useMemo(() => (q: string) => latest.current.onChange({ ...latest.current.filters, q }), []);
  return (
    <Box
      role="search"
      aria-label="Filter issues"
      sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } }}
    >
      <SearchBox value={filters.q} onSearch={search} />
      <TextField
        select
        size="small"
        label="Category"
        value={filters.category}
        onChange={(e) => set('category', e.target.value)}
        sx={{ gridColumn: { xs: '1 / -1', md: 'span 2' } }}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      >
        <MenuItem value="">All Categories</MenuItem>
        {CATEGORIES.map((c) => (
          <MenuItem key={c.value} value={c.value}>
            {c.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Printer"
        value={filters.printer}
        onChange={(e) => set('printer', e.target.value)}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      >
        <MenuItem value="">All Printers</MenuItem>
        {printerNames.map((n) => (
          <MenuItem key={n} value={n}>
            {n}
          </MenuItem>
        ))}
      </TextField>
      <TextField select size="small" label="Status" value={filters.status} onChange={(e) => set('status', e.target.value as StatusFilter)}>
        {STATUS_FILTERS.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        type="date"
        label="Start Date"
        value={filters.startDate}
        onChange={(e) => set('startDate', e.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: filters.endDate || undefined } }}
      />
      <TextField
        size="small"
        type="date"
        label="End Date"
        value={filters.endDate}
        onChange={(e) => set('endDate', e.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: filters.startDate || undefined } }}
      />
    </Box>
  );
}

export default function Issues() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const setFilters = (f: IssueFilters) => setParams(filtersToSearch(f), { replace: true });
  // Back from an issue: as many issues as were shown, scrolled to where the maker was.
  const back = useNavigationType() === 'POP';
  const [place] = useState(() => (back ? listPlace(location.key) : null));
  const pages = place ? Math.max(1, Math.ceil(place.shown / PAGE_SIZE)) : 1;
  // The server filters and pages; the summary says how many issues there are in all.
  const { issues: shown, total: matching, error: pageError, loading: pageLoading, hasMore, loadingMore, loadMore } = useIssuePages(filters, pages);
  const { summary, error: summaryError, loading: summaryLoading } = useIssueSummary();
  const { printers } = usePrinters();
  const printerNames = useMemo(() => [...new Set(printers.map((p) => p.name))].sort((a, b) => a.localeCompare(b)), [printers]);
  const error = pageError ?? summaryError;
  const loading = summaryLoading || (pageLoading && shown.length === 0);
  const totalIssues = summary?.total ?? 0;
  const active = filtersActive(filters);

  const open = (issue: Issue) => {
    rememberListPlace(location.key, { shown: shown.length, scrollY: window.scrollY });
    handOffIssue(issue);
    navigate(issuePath(issue.id), { state: { fromList: true } });
  };

  const restored = useRef(!place);
  const ready = !error && !loading && !pageLoading && shown.length >= Math.min(place?.shown ?? 0, matching);
  useLayoutEffect(() => {
    if (restored.current || !ready || !place) return;
    restored.current = true;
    window.scrollTo(0, place.scrollY);
  }, [ready, place]);

  let body: ReactNode;
  if (error) {
    body = (
      <EmptyState
        icon={<ErrorOutlineRounded color="error" />}
        title="Failed to Load Issues"
        text="Your issues could not be loaded. Check your connection and try again."
        action={
          <Button variant="contained" onClick={() => window.location.reload()}>
            Try Again
          </Button>
        }
      />
    );
  } else if (loading) {
    body = (
      <Stack spacing={2} aria-busy="true" aria-label="Loading issues">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={140} data-testid="issue-skeleton" />
        ))}
      </Stack>
    );
  } else if (totalIssues === 0) {
    body = (
      <EmptyState
        icon={<InboxRounded />}
        title="No Issues Reported"
        text="When a print fails, describe it and the fixes land here with everything that worked."
        action={
          <Button component={RouterLink} to="/report-issue" variant="contained" startIcon={<AddCircleOutlineRounded />}>
            Report Your First Issue
          </Button>
        }
      />
    );
  } else if (pageLoading) {
    body = (
      <Stack spacing={2} aria-busy="true" aria-label="Loading issues">
        <Skeleton variant="rounded" height={140} data-testid="issue-skeleton" />
      </Stack>
    );
  } else if (shown.length === 0) {
    body = (
      <EmptyState
        icon={<SearchOffRounded />}
        title="No Issues Match Filters"
        text="Try other words, another category, printer, status or date range, or clear the filters above."
      />
    );
  } else {
    body = (
      <Stack spacing={2}>
        {shown.map((issue) => (
          <IssueCard key={issue.id} issue={issue} onOpen={() => open(issue)} />
        ))}
        {hasMore && (
          <Button variant="outlined" onClick={loadMore} disabled={loadingMore} sx={{ alignSelf: 'center' }}>
            {loadingMore ? 'Loading…' : `Show More (${shown.length} of ${matching})`}
          </Button>
        )}
      </Stack>
    );
  }

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2.5, flexWrap: 'wrap', rowGap: 1.5 }}>
        <Box>
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 32 } }}>
            All Issues
          </Typography>
          <Typography sx={{ color: 'text.secondary' }}>Every problem you reported and what fixed it.</Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          <ExportButton disabled={loading || Boolean(error) || totalIssues === 0} />
          <Button component={RouterLink} to="/report-issue" variant="contained" startIcon={<AddCircleOutlineRounded />}>
            New Issue
          </Button>
        </Stack>
      </Stack>
      {!error && !loading && totalIssues > 0 && (
        <Card sx={{ mb: 2.5 }}>
          <CardContent sx={{ p: 2, '&:last-child': { pb: 2 } }}>
            <Filters filters={filters} printerNames={printerNames} onChange={setFilters} />
            {active && (
              <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 1.5 }}>
                <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="filter-count">
                  Showing {matching} of {totalIssues} issues
                </Typography>
                <Button size="small" startIcon={<FilterAltOffRounded />} onClick={() => setFilters(NO_FILTERS)}>
                  Clear Filters
                </Button>
              </Stack>
            )}
          </CardContent>
        </Card>
      )}
      {body}
    </Container>
  );
}

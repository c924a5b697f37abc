import Chip from '@mui/material/Chip';
import { categoryBadge, statusBadge } from './badges';

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const b = statusBadge(status);
  return <Chip size="small" label={b.label} color={b.color} data-testid="status-badge" data-status={status ?? 'pending'} />;
}

export function CategoryBadge({ category }: { category: string }) {
  const b = categoryBadge(category);
  return <Chip size="small" variant="outlined" label={b.label} color={b.color} data-testid="category-badge" />;
}

import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import CheckCircleRoundedIcon from '@mui/icons-material/CheckCircleRounded';
import { formatPrice, type Plan } from '../../plans';

interface Props {
  plan: Plan;
  loading?: boolean;
  /** The call to action at the bottom of the card. */
  action: ReactNode;
}

/** One subscription plan: name, monthly price, monthly issue limit and features. */
export function PlanCard({ plan, loading = false, action }: Props) {
  return (
    <Card
      data-testid={`plan-${plan.tier}`}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        position: 'relative',
        overflow: 'visible',
        borderColor: plan.popular ? 'primary.main' : 'divider',
        borderWidth: plan.popular ? 2 : 1,
        boxShadow: plan.popular ? '0 12px 32px -12px rgba(234, 88, 12, 0.35)' : 'none',
      }}
    >
      {plan.popular && (
        <Chip
          label="Popular"
          color="primary"
          size="small"
          sx={{ position: 'absolute', top: -12, left: '50%', transform: 'translateX(-50%)' }}
        />
      )}
      <CardContent sx={{ p: 3, flexGrow: 1, display: 'flex', flexDirection: 'column' }}>
        <Typography variant="h6" component="h2">
          {plan.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ minHeight: 40 }}>
          {plan.tagline}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 0.5, my: 2 }}>
          {loading ? (
            <Skeleton width={96} height={52} />
          ) : (
            <>
              <Typography variant="h3" component="p" data-testid="plan-price" sx={{ fontSize: { xs: '2.5rem', lg: '2.25rem' } }}>
                {formatPrice(plan.amount)}
              </Typography>
              <Typography color="text.secondary">/month</Typography>
            </>
          )}
        </Box>
        <Typography
          variant="subtitle2"
          component="p"
          data-testid="plan-limit"
          sx={{ mb: 1.5, px: 1.5, py: 0.75, borderRadius: 2, bgcolor: 'action.hover', fontWeight: 700 }}
        >
          {loading ? <Skeleton width={140} /> : `${plan.limit} issues per month`}
        </Typography>
        <List dense disablePadding sx={{ mb: 3, flexGrow: 1 }}>
          {plan.features.map((f) => (
            <ListItem key={f.label} disableGutters sx={{ alignItems: 'flex-start' }}>
              <ListItemIcon sx={{ minWidth: 30, mt: 0.25 }}>
                <CheckCircleRoundedIcon fontSize="small" color="success" />
              </ListItemIcon>
              <ListItemText primary={f.label} />
            </ListItem>
          ))}
        </List>
        {action}
      </CardContent>
    </Card>
  );
}

/** The plan cards side by side: one column on phones, two on tablets, four on wide screens. */
export function PlanGrid({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
        pt: 1.5,
        alignItems: 'stretch',
      }}
    >
      {children}
    </Box>
  );
}

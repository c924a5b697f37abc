import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface Props {
  title: string;
  children?: ReactNode;
  /** Buttons shown under the text. */
  actions?: { label: string; to: string }[];
}

/** A simple titled screen for routes whose full content arrives with later work. */
export function PagePlaceholder({ title, children, actions = [] }: Props) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 6, md: 10 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {title}
        </Typography>
        {children && (
          <Typography color="text.secondary" component="div" sx={{ mb: actions.length ? 3 : 0 }}>
            {children}
          </Typography>
        )}
        {actions.length > 0 && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            {actions.map((a, i) => (
              <Button key={a.to} component={RouterLink} to={a.to} variant={i === 0 ? 'contained' : 'outlined'}>
                {a.label}
              </Button>
            ))}
          </Stack>
        )}
      </Paper>
    </Container>
  );
}

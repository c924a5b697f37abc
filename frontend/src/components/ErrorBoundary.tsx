import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import { OFFLINE_ERROR } from '../features/troubleshoot/errors';

interface Props {
  children: ReactNode;
  /** Changing this value clears a caught error (the current route). */
  resetKey?: string;
}

interface State {
  error: Error | null;
}

/** Screen shown for an uncaught render error. */
export function ErrorScreen({ onRetry }: { onRetry: () => void }) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 8, md: 12 }, textAlign: 'center' }}>
      <Box
        sx={{
          width: 64,
          height: 64,
          mx: 'auto',
          mb: 3,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'error.main',
          color: 'error.contrastText',
        }}
      >
        <ErrorOutlineRoundedIcon fontSize="large" />
      </Box>
      <Typography variant="h4" component="h1" gutterBottom>
        Something went wrong
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {typeof navigator !== 'undefined' && !navigator.onLine
          ? OFFLINE_ERROR
          : 'An unexpected error stopped this page from loading. Refresh the page or try again.'}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
        <Button variant="contained" size="large" onClick={() => window.location.reload()}>
          Refresh Page
        </Button>
        <Button variant="outlined" size="large" onClick={onRetry}>
          Try Again
        </Button>
      </Stack>
    </Container>
  );
}

class Boundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Uncaught render error', error, info.componentStack);
  }

  componentDidUpdate(prev: Props): void {
    if (this.state.error && prev.resetKey !== this.props.resetKey) {
      this.setState({ error: null });
    }
  }

  render() {
    if (this.state.error) {
      return <ErrorScreen onRetry={() => this.setState({ error: null })} />;
    }
    return this.props.children;
  }
}

/** Catches render errors below it; navigating to another route clears the error. */
export function ErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}

export { Boundary as ErrorBoundaryBase };

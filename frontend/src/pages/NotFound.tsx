import { Link as RouterLink, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

/** Catch-all screen for unknown routes. */
export default function NotFound() {
  const { pathname } = useLocation();
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 8, md: 12 } }}>
      <Typography variant="h4" component="h1" gutterBottom>
        404 Page Not Found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Nothing lives at this address. Check the link, or head back to the start.
      </Typography>
      <Box
        component="pre"
        sx={{
          m: 0,
          mb: 4,
          p: 2,
          borderRadius: 2,
          border: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
          fontSize: 13,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        }}
      >
        {`// Did you forget to add the page to the router?\n// No <Route> in src/App.tsx matches "${pathname}".`}
      </Box>
      <Button component={RouterLink} to="/" variant="contained">
        Go to Home
      </Button>
    </Container>
  );
}
